//! Windows: print `--help`, `--version` and the unknown-option sentence into
//! the terminal the binary was started from (issue 21). The release binary
//! is a GUI program (`windows_subsystem = "windows"`, main.rs) so that
//! double-clicking it opens no console window; the price is that it has no
//! console of its own, and what it printed went nowhere. Attaching to the
//! parent's console, as Alacritty and WezTerm do, puts the text where the
//! person typed the command. Only done when the command line asks for
//! something to be printed: a normal start never takes over a console.
//!
//! Untested on Windows (compiled for x86_64-pc-windows-gnu only; see
//! docs/devlog/2026-12-05-dialog-language.md). Elsewhere this does nothing.

/// Attaches to the parent process's console when there is one; true when
/// attached. Harmless when it fails: no parent console (started from
/// Explorer), or a console already (a debug build, which is a console
/// program), and output redirected to a file or pipe is written there
/// either way.
#[cfg(windows)]
pub fn attach_parent() -> bool {
    use windows_sys::Win32::System::Console::{AttachConsole, ATTACH_PARENT_PROCESS};
    // SAFETY: no pointers; the call only changes which console this process
    // is attached to, before any thread has written to one.
    unsafe { AttachConsole(ATTACH_PARENT_PROCESS) != 0 }
}

/// Not Windows: a terminal program's output already goes to its terminal.
#[cfg(not(windows))]
pub fn attach_parent() -> bool {
    false
}
