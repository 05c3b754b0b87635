//! Starting and stopping the sidecar process, in plain Rust (no Tauri types)
//! so the whole lifecycle is unit-tested against real child processes.
//!
//! Start: spawn with three pipes, write the token and a newline to stdin (and
//! keep stdin open: its end-of-file is the sidecar's signal to exit), read one
//! handshake line from stdout, then drain stdout and stderr into the log.
//! Stop: close stdin, give the sidecar `grace` to exit by itself, then kill.

use crate::handshake::{self, Handshake, HandshakeError};
use crate::rotlog::RotatingLog;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

pub type SharedLog = Arc<Mutex<Option<RotatingLog>>>;

#[derive(Debug)]
pub enum StartError {
    Spawn(std::io::Error),
    Token(std::io::Error),
    Handshake(HandshakeError),
    Timeout(Duration),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Spawn(e) => write!(f, "the sidecar could not be started: {e}"),
            StartError::Token(e) => write!(f, "the sidecar did not accept its token: {e}"),
            StartError::Handshake(e) => write!(f, "{e}"),
            StartError::Timeout(d) => write!(f, "the sidecar was not ready after {}s", d.as_secs()),
        }
    }
}

impl std::error::Error for StartError {}

/// How a stopped sidecar ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// It exited by itself after stdin closed.
    Exited(Option<i32>),
    /// It outlived the grace period and was killed.
    Killed,
}

/// A spawned sidecar whose handshake has not been read yet.
pub struct Pending {
    child: Child,
    stdin: Option<ChildStdin>,
    first_line: mpsc::Receiver<std::io::Result<String>>,
    log: SharedLog,
}

/// A sidecar that sent its handshake.
pub struct Running {
    child: Child,
    stdin: Option<ChildStdin>,
    pub handshake: Handshake,
}

pub fn log_line(log: &SharedLog, text: &str) {
    if let Ok(mut guard) = log.lock() {
        if let Some(l) = guard.as_mut() {
            let _ = l.line(text);
        }
    }
}

fn drain<R: Read + Send + 'static>(
    reader: BufReader<R>,
    log: SharedLog,
    tag: &'static str,
    on_eof: Option<Box<dyn FnOnce() + Send>>,
) {
    thread::spawn(move || {
        for line in reader.lines() {
            match line {
                Ok(l) => log_line(&log, &format!("[{tag}] {l}")),
                Err(_) => break,
            }
        }
        if let Some(f) = on_eof {
            f();
        }
    });
}

/// Spawn `cmd` and hand it `token`. Call this on a thread that lives as long
/// as the app (the main thread): Linux's parent-death signal, which the
/// sidecar requests, fires when the *thread* that forked it ends.
///
/// `on_exit` runs once the sidecar's stdout closes (it exited or crashed).
pub fn spawn(
    mut cmd: Command,
    token: &str,
    log: SharedLog,
    on_exit: Option<Box<dyn FnOnce() + Send>>,
) -> Result<Pending, StartError> {
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(windows)]
    {
        use std::os::windows::process::CommandExt;
        const CREATE_NO_WINDOW: u32 = 0x0800_0000;
        cmd.creation_flags(CREATE_NO_WINDOW);
    }
    let mut child = cmd.spawn().map_err(StartError::Spawn)?;
    #[cfg(windows)]
    crate::jobobject::kill_on_close(&child);

    let mut stdin = child.stdin.take();
    let written = match stdin.as_mut() {
        Some(pipe) => pipe
            .write_all(token.as_bytes())
            .and_then(|_| pipe.write_all(b"\n"))
            .and_then(|_| pipe.flush()),
        None => Err(std::io::Error::other("no stdin pipe")),
    };
    if let Err(e) = written {
        let _ = child.kill();
        let _ = child.wait();
        return Err(StartError::Token(e));
    }

    let stderr = child.stderr.take().expect("stderr is piped");
    drain(BufReader::new(stderr), log.clone(), "stderr", None);

    let stdout = child.stdout.take().expect("stdout is piped");
    let (tx, rx) = mpsc::channel();
    let out_log = log.clone();
    thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut first = String::new();
        // Bounded: a sidecar that prints megabytes without a newline is broken.
        let got = (&mut reader)
            .take(handshake::MAX_LINE as u64 + 1)
            .read_line(&mut first)
            .map(|_| first);
        let _ = tx.send(got);
        for line in reader.lines() {
            match line {
                Ok(l) => log_line(&out_log, &format!("[stdout] {l}")),
                Err(_) => break,
            }
        }
        if let Some(f) = on_exit {
            f();
        }
    });
    Ok(Pending {
        child,
        stdin,
        first_line: rx,
        log,
    })
}

impl Pending {
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Wait for the handshake line; on any failure the process is stopped.
    pub fn wait_ready(mut self, timeout: Duration) -> Result<Running, StartError> {
        let outcome = match self.first_line.recv_timeout(timeout) {
            Ok(Ok(line)) => handshake::parse(&line).map_err(StartError::Handshake),
            Ok(Err(e)) => Err(StartError::Handshake(HandshakeError::Malformed(
                e.to_string(),
            ))),
            Err(mpsc::RecvTimeoutError::Timeout) => Err(StartError::Timeout(timeout)),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                Err(StartError::Handshake(HandshakeError::Empty))
            }
        };
        match outcome {
            Ok(hs) => {
                log_line(
                    &self.log,
                    &format!("[shell] sidecar ready on port {} (pid {})", hs.port, hs.pid),
                );
                Ok(Running {
                    child: self.child,
                    stdin: self.stdin,
                    handshake: hs,
                })
            }
            Err(e) => {
                log_line(&self.log, &format!("[shell] {e}"));
                stop_child(&mut self.child, &mut self.stdin, Duration::from_secs(2));
                Err(e)
            }
        }
    }
}

impl Running {
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Close stdin, wait up to `grace`, then kill.
    pub fn stop(mut self, grace: Duration) -> Stopped {
        stop_child(&mut self.child, &mut self.stdin, grace)
    }

    /// Whether the process has exited (without waiting).
    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().ok().flatten()
    }
}

/// The shutdown sequence. Dropping stdin is the polite request; the kill is
/// the guarantee (on Windows the job object also kills the sidecar's own
/// children; elsewhere the sidecar cleans up its process groups on EOF).
pub fn stop_child(child: &mut Child, stdin: &mut Option<ChildStdin>, grace: Duration) -> Stopped {
    drop(stdin.take());
    let deadline = Instant::now() + grace;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Stopped::Exited(status.code()),
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(25)),
            _ => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    Stopped::Killed
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::fs;
    use std::path::PathBuf;
    use std::sync::atomic::{AtomicBool, Ordering};

    const TOKEN: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

    fn sh(script: &str) -> Command {
        let mut c = Command::new("/bin/sh");
        c.arg("-c").arg(script);
        c
    }

    fn log_in(tag: &str) -> (SharedLog, PathBuf) {
        let dir = std::env::temp_dir().join(format!("lw-sidecar-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        let path = dir.join("sidecar.log");
        let log = RotatingLog::open(&path, 1 << 20, 2).unwrap();
        (Arc::new(Mutex::new(Some(log))), path)
    }

    fn pid_alive(pid: u32) -> bool {
        // Zombies are gone for our purpose; /proc/<pid>/stat field 3 is the state.
        match fs::read_to_string(format!("/proc/{pid}/stat")) {
            Ok(s) => !s
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z'),
            Err(_) => false,
        }
    }

    // A stand-in with the sidecar's contract: read the token line, report its
    // length on stderr, print the handshake, exit on stdin EOF.
    const POLITE: &str = r#"read t; echo "token length ${#t}" >&2; echo "{\"port\": 4242, \"version\": \"t\", \"pid\": $$}"; echo after; cat >/dev/null"#;

    #[test]
    fn handshake_token_and_polite_exit() {
        let (log, path) = log_in("polite");
        let exited = Arc::new(AtomicBool::new(false));
        let flag = exited.clone();
        let pending = spawn(
            sh(POLITE),
            TOKEN,
            log,
            Some(Box::new(move || flag.store(true, Ordering::SeqCst))),
        )
        .unwrap();
        let running = pending.wait_ready(Duration::from_secs(10)).unwrap();
        assert_eq!(running.handshake.port, 4242);
        assert_eq!(running.handshake.pid, running.pid());
        let pid = running.pid();
        let t0 = Instant::now();
        assert_eq!(
            running.stop(Duration::from_secs(5)),
            Stopped::Exited(Some(0))
        );
        assert!(t0.elapsed() < Duration::from_secs(5));
        assert!(!pid_alive(pid));
        thread::sleep(Duration::from_millis(200));
        assert!(exited.load(Ordering::SeqCst));
        let text = fs::read_to_string(path).unwrap();
        assert!(text.contains("token length 64"));
        assert!(text.contains("[stdout] after"));
        assert!(!text.contains(TOKEN), "the token must never reach the log");
    }

    #[test]
    fn a_sidecar_that_ignores_eof_is_killed_after_the_grace() {
        let (log, _) = log_in("stubborn");
        let script =
            r#"read t; echo "{\"port\": 1, \"version\": \"t\", \"pid\": $$}"; exec sleep 60"#;
        let running = spawn(sh(script), TOKEN, log, None)
            .unwrap()
            .wait_ready(Duration::from_secs(10))
            .unwrap();
        let pid = running.pid();
        let t0 = Instant::now();
        assert_eq!(running.stop(Duration::from_millis(300)), Stopped::Killed);
        assert!(t0.elapsed() < Duration::from_secs(3));
        assert!(!pid_alive(pid));
    }

    #[test]
    fn exit_without_handshake_is_reported_and_logged() {
        let (log, path) = log_in("dies");
        let err = spawn(
            sh("read t; echo 'Traceback: boom' >&2; exit 3"),
            TOKEN,
            log,
            None,
        )
        .unwrap()
        .wait_ready(Duration::from_secs(10))
        .err()
        .unwrap();
        assert!(
            matches!(err, StartError::Handshake(HandshakeError::Empty)),
            "{err}"
        );
        thread::sleep(Duration::from_millis(200));
        assert!(fs::read_to_string(path)
            .unwrap()
            .contains("Traceback: boom"));
    }

    #[test]
    fn garbage_first_line_is_malformed_and_the_process_is_stopped() {
        let (log, _) = log_in("garbage");
        let pending = spawn(sh("read t; echo hello; exec sleep 60"), TOKEN, log, None).unwrap();
        let pid = pending.pid();
        let err = pending.wait_ready(Duration::from_secs(10)).err().unwrap();
        assert!(matches!(
            err,
            StartError::Handshake(HandshakeError::Malformed(_))
        ));
        assert!(!pid_alive(pid));
    }

    #[test]
    fn silence_times_out_and_the_process_is_stopped() {
        let (log, _) = log_in("silent");
        let pending = spawn(sh("exec sleep 60"), TOKEN, log, None).unwrap();
        let pid = pending.pid();
        let err = pending
            .wait_ready(Duration::from_millis(300))
            .err()
            .unwrap();
        assert!(matches!(err, StartError::Timeout(_)));
        assert!(!pid_alive(pid));
    }

    #[test]
    fn a_missing_program_is_a_spawn_error() {
        let (log, _) = log_in("missing");
        let err = spawn(
            Command::new("/nonexistent/labwright-sidecar"),
            TOKEN,
            log,
            None,
        )
        .err()
        .unwrap();
        assert!(matches!(err, StartError::Spawn(_)));
    }
}
