//! The desktop binary's command line (issue 21: `labwright --help` panicked
//! with a backtrace: nothing read the arguments, so the window was created
//! first, and GTK cannot start in a terminal without a display).
//!
//! Read before any window exists: `--help` and `--version` print and exit 0,
//! anything else on the command line is one sentence and exit 2, and on
//! Linux a missing display is one sentence and exit 1 instead of GTK's panic.

use std::ffi::{OsStr, OsString};
use std::io::Write;

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Invocation {
    /// No options: open the window.
    Window,
    Help,
    Version,
    /// An option or argument the binary does not take (as typed).
    Unknown(String),
}

impl Invocation {
    /// Whether the command line asks for something to be printed: help, the
    /// version, or the sentence about what it does not take; not a normal
    /// start. On Windows the binary attaches to its parent's console only
    /// then (console.rs), so a window started from a terminal leaves it be.
    pub fn prints(&self) -> bool {
        !matches!(self, Invocation::Window)
    }
}

/// Reads the arguments after the program's name. The first that decides
/// wins (`--help --bogus` is help, `--bogus --help` is an error, as with
/// most tools).
pub fn parse<I: IntoIterator<Item = OsString>>(args: I) -> Invocation {
    for arg in args.into_iter().skip(1) {
        match arg.to_str() {
            Some("-h" | "--help") => return Invocation::Help,
            Some("-V" | "--version") => return Invocation::Version,
            // Older macOS adds a process serial number when Finder starts an app.
            Some(a) if cfg!(target_os = "macos") && a.starts_with("-psn_") => continue,
            _ => return Invocation::Unknown(arg.to_string_lossy().into_owned()),
        }
    }
    Invocation::Window
}

pub fn version_line() -> String {
    format!("Labwright {}\n", env!("CARGO_PKG_VERSION"))
}

pub fn help_text() -> String {
    format!(
        "Labwright {}: a folder of experiment data in, a LaTeX report out.\n\
         \n\
         Usage: labwright [--help | --version]\n\
         \n\
         Without options it opens the Labwright window; drop a data folder on it.\n\
         \n\
         Options:\n\
         \x20 -h, --help     print this help and exit\n\
         \x20 -V, --version  print the version and exit\n\
         \n\
         Environment:\n\
         \x20 LABWRIGHT_HOME  where sessions, versions and logs are kept\n\
         \x20                 (default: the system's data folder for Labwright)\n",
        env!("CARGO_PKG_VERSION")
    )
}

/// Linux and the BSDs draw through X11 or Wayland; with neither variable set
/// GTK cannot start (and tao panics with a backtrace). One sentence instead.
pub fn missing_display(var: impl Fn(&str) -> Option<OsString>) -> Option<&'static str> {
    if cfg!(any(target_os = "windows", target_os = "macos")) {
        return None;
    }
    let set = |name: &str| var(name).is_some_and(|v| !v.is_empty());
    if set("DISPLAY") || set("WAYLAND_DISPLAY") {
        None
    } else {
        Some("labwright: no graphical display was found (DISPLAY and WAYLAND_DISPLAY are not set); start Labwright from a desktop session.")
    }
}

/// What `main` does before any window: Some(exit code) when the process
/// should end here, after writing what it has to say to `out` or `err`.
/// Write errors (a closed pipe: `labwright --help | head -0`) are ignored,
/// unlike `println!`, which would panic on them.
pub fn early_exit(
    invocation: &Invocation,
    var: impl Fn(&str) -> Option<OsString>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Option<i32> {
    match invocation {
        Invocation::Help => {
            let _ = out.write_all(help_text().as_bytes());
            Some(0)
        }
        Invocation::Version => {
            let _ = out.write_all(version_line().as_bytes());
            Some(0)
        }
        Invocation::Unknown(arg) => {
            let what = if arg.starts_with('-') {
                "option"
            } else {
                "argument"
            };
            let _ = writeln!(
                err,
                "labwright: unknown {what} {arg:?}; run `labwright --help` to see the options."
            );
            Some(2)
        }
        Invocation::Window => missing_display(var).map(|sentence| {
            let _ = writeln!(err, "{sentence}");
            1
        }),
    }
}

/// `std::env::var_os` for `early_exit`.
pub fn env_var(name: &str) -> Option<OsString> {
    std::env::var_os(OsStr::new(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        std::iter::once("labwright")
            .chain(list.iter().copied())
            .map(OsString::from)
            .collect()
    }

    fn run(list: &[&str], display: Option<&str>) -> (Option<i32>, String, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let var = |name: &str| {
            (name == "DISPLAY")
                .then(|| display.map(OsString::from))
                .flatten()
        };
        let code = early_exit(&parse(args(list)), var, &mut out, &mut err);
        (
            code,
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    #[test]
    fn reads_help_version_and_nothing() {
        assert_eq!(parse(args(&[])), Invocation::Window);
        assert_eq!(parse(args(&["--help"])), Invocation::Help);
        assert_eq!(parse(args(&["-h"])), Invocation::Help);
        assert_eq!(parse(args(&["--version"])), Invocation::Version);
        assert_eq!(parse(args(&["-V"])), Invocation::Version);
        assert_eq!(parse(args(&["--help", "--bogus"])), Invocation::Help);
        assert_eq!(
            parse(args(&["--bogus", "--help"])),
            Invocation::Unknown("--bogus".into())
        );
        assert_eq!(parse(args(&["build"])), Invocation::Unknown("build".into()));
    }

    #[test]
    fn only_a_normal_start_prints_nothing() {
        assert!(!Invocation::Window.prints());
        assert!(Invocation::Help.prints());
        assert!(Invocation::Version.prints());
        assert!(Invocation::Unknown("--bogus".into()).prints());
    }

    #[test]
    fn help_and_version_print_and_exit_0_without_a_display() {
        let (code, out, err) = run(&["--help"], None);
        assert_eq!(code, Some(0));
        assert!(out.starts_with("Labwright ") && out.contains("Usage: labwright"));
        assert!(out.contains("--version") && err.is_empty());
        let (code, out, err) = run(&["--version"], None);
        assert_eq!(code, Some(0));
        assert_eq!(out, format!("Labwright {}\n", env!("CARGO_PKG_VERSION")));
        assert!(err.is_empty());
    }

    #[test]
    fn an_unknown_option_is_one_sentence_and_exit_2() {
        let (code, out, err) = run(&["--bogus"], Some(":0"));
        assert_eq!(code, Some(2));
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1);
        assert!(err.contains("\"--bogus\"") && err.contains("labwright --help"));
        let (code, _, err) = run(&["folder"], Some(":0"));
        assert_eq!(code, Some(2));
        assert!(err.contains("unknown argument \"folder\""));
    }

    #[test]
    fn the_window_needs_a_display_on_linux() {
        let (code, out, _) = run(&[], Some(":99"));
        assert_eq!((code, out.as_str()), (None, ""));
        let (code, _, err) = run(&[], None);
        if cfg!(target_os = "linux") {
            assert_eq!(code, Some(1));
            assert_eq!(err.lines().count(), 1);
            assert!(err.contains("no graphical display"));
        } else if cfg!(any(target_os = "windows", target_os = "macos")) {
            assert_eq!(code, None);
        }
        let (code, _, _) = run(&[], Some(""));
        if cfg!(target_os = "linux") {
            assert_eq!(code, Some(1), "an empty DISPLAY is no display");
        }
    }

    #[test]
    fn a_closed_output_does_not_panic() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::ErrorKind::BrokenPipe.into())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let code = early_exit(&Invocation::Help, |_| None, &mut Closed, &mut Closed);
        assert_eq!(code, Some(0));
    }
}
