// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

use labwright_lib::args;

fn main() {
    // The command line is read before any window exists (args.rs): --help,
    // --version, an unknown option and a missing display end here.
    let invocation = args::parse(std::env::args_os());
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
