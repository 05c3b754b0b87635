// No console window on Windows release builds (so what --help prints needs
// the parent's console, console.rs).
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

use labwright_lib::{args, console};

fn main() {
    // The command line is read before any window exists (args.rs): --help,
    // --version, an unknown option and a missing display end here.
    let invocation = args::parse(std::env::args_os());
    if invocation.prints() {
        // Windows: into the terminal the command was typed in; elsewhere
        // nothing to do. Before the first write, which it redirects.
        console::attach_parent();
    }
    if let Some(code) = args::early_exit(
        &invocation,
        args::env_var,
        &mut std::io::stdout().lock(),
        &mut std::io::stderr().lock(),
    ) {
        std::process::exit(code);
    }
    labwright_lib::run();
}
