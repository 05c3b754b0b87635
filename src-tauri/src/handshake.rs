//! The sidecar's one handshake line: `{"port": 43817, "version": "0.1.0", "pid": 1234}`.
//!
//! Parsing is strict on purpose: the line comes from a process we started, so
//! anything that is not exactly one JSON object with a usable port means the
//! sidecar is broken or something else wrote to its stdout, and the window
//! must say "did not start" rather than talk to a wrong address.

use serde::Deserialize;
use std::fmt;

/// What the shell needs from the handshake.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct Handshake {
    pub port: u16,
    pub version: String,
    pub pid: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HandshakeError {
    /// The sidecar closed its stdout without writing a line.
    Empty,
    /// The line is not the expected JSON object.
    Malformed(String),
    /// Port 0 cannot be connected to.
    BadPort,
}

impl fmt::Display for HandshakeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HandshakeError::Empty => write!(f, "the sidecar exited before it was ready"),
            HandshakeError::Malformed(why) => {
                write!(f, "the sidecar's first line was not a handshake ({why})")
            }
            HandshakeError::BadPort => write!(f, "the sidecar reported port 0"),
        }
    }
}

impl std::error::Error for HandshakeError {}

/// Longest line we accept; a real handshake is under 100 bytes.
pub const MAX_LINE: usize = 4096;

/// Parse one line (with or without its trailing newline).
pub fn parse(line: &str) -> Result<Handshake, HandshakeError> {
    let trimmed = line.trim();
    if trimmed.is_empty() {
        return Err(HandshakeError::Empty);
    }
    if trimmed.len() > MAX_LINE {
        return Err(HandshakeError::Malformed("line too long".into()));
    }
    let hs: Handshake =
        serde_json::from_str(trimmed).map_err(|e| HandshakeError::Malformed(e.to_string()))?;
    if hs.port == 0 {
        return Err(HandshakeError::BadPort);
    }
    Ok(hs)
}

impl Handshake {
    /// The API base the UI talks to; loopback only, never a host name that
    /// DNS or /etc/hosts could redirect.
    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_contract_line() {
        let hs = parse("{\"port\": 43817, \"version\": \"0.1.0\", \"pid\": 1234}\n").unwrap();
        assert_eq!(hs.port, 43817);
        assert_eq!(hs.version, "0.1.0");
        assert_eq!(hs.pid, 1234);
        assert_eq!(hs.base_url(), "http://127.0.0.1:43817");
    }

    #[test]
    fn tolerates_extra_fields() {
        let hs = parse(r#"{"port": 1, "version": "x", "pid": 2, "later": true}"#).unwrap();
        assert_eq!(hs.port, 1);
    }

    #[test]
    fn empty_line_means_the_sidecar_died() {
        assert_eq!(parse(""), Err(HandshakeError::Empty));
        assert_eq!(parse("  \r\n"), Err(HandshakeError::Empty));
    }

    #[test]
    fn rejects_non_json_and_wrong_types() {
        assert!(matches!(
            parse("Traceback (most recent call last):"),
            Err(HandshakeError::Malformed(_))
        ));
        assert!(matches!(
            parse(r#"{"port": "80", "version": "x", "pid": 1}"#),
            Err(HandshakeError::Malformed(_))
        ));
        assert!(matches!(
            parse(r#"{"port": 70000, "version": "x", "pid": 1}"#),
            Err(HandshakeError::Malformed(_))
        ));
        assert!(matches!(
            parse(r#"{"version": "x", "pid": 1}"#),
            Err(HandshakeError::Malformed(_))
        ));
        assert!(matches!(parse("[1,2]"), Err(HandshakeError::Malformed(_))));
    }

    #[test]
    fn rejects_port_zero_and_huge_lines() {
        assert_eq!(
            parse(r#"{"port": 0, "version": "x", "pid": 1}"#),
            Err(HandshakeError::BadPort)
        );
        let long = format!(
            "{{\"port\": 1, \"version\": \"{}\", \"pid\": 1}}",
            "a".repeat(5000)
        );
        assert!(matches!(parse(&long), Err(HandshakeError::Malformed(_))));
    }
}
