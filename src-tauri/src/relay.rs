//! An optional relay between the webview and the sidecar.
//!
//! `LABWRIGHT_WEBVIEW_RELAY=127.0.0.1:<port>` makes the shell give the
//! webview the relay's address instead of the sidecar's, so a test that owns
//! the relay (tests/desktop/relay.py) can cut the webview's connection in the
//! middle of a run and restore it, as a network loss would: in the desktop
//! app the page learns the sidecar's address over IPC, so nothing else can sit
//! between them. The shell itself still talks to the sidecar directly.
//!
//! Only the literal loopback address 127.0.0.1 is accepted: never a host name
//! (DNS or /etc/hosts could point it elsewhere), never another interface, so
//! the variable cannot send the token to another machine.

use std::fmt;
use std::net::{Ipv4Addr, SocketAddrV4};

/// The variable's name.
pub const ENV: &str = "LABWRIGHT_WEBVIEW_RELAY";

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RelayError {
    /// Not `host:port`, or the port is not a number from 1 to 65535.
    Malformed(String),
    /// A host other than 127.0.0.1.
    NotLoopback(String),
}

impl fmt::Display for RelayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RelayError::Malformed(v) => {
                write!(f, "{ENV}={v:?} is not 127.0.0.1:<port>; it is ignored")
            }
            RelayError::NotLoopback(v) => {
                write!(f, "{ENV}={v:?} is not on 127.0.0.1; it is ignored")
            }
        }
    }
}

impl std::error::Error for RelayError {}

/// Parse the variable's value: exactly `127.0.0.1:<port>`, port not 0.
pub fn parse(value: &str) -> Result<SocketAddrV4, RelayError> {
    let trimmed = value.trim();
    let Some((host, port)) = trimmed.rsplit_once(':') else {
        return Err(RelayError::Malformed(trimmed.to_string()));
    };
    let port: u16 = port
        .parse()
        .ok()
        .filter(|p| *p != 0)
        .ok_or_else(|| RelayError::Malformed(trimmed.to_string()))?;
    // Compared as text, not parsed: "127.1" or "0177.0.0.1" parse to loopback
    // in some resolvers, and nothing but the plain form has a reason to be here.
    if host != "127.0.0.1" {
        return Err(RelayError::NotLoopback(trimmed.to_string()));
    }
    Ok(SocketAddrV4::new(Ipv4Addr::LOCALHOST, port))
}

/// The relay the environment asks for: `None` when the variable is unset or
/// empty, else its parse.
pub fn from_env() -> Option<Result<SocketAddrV4, RelayError>> {
    let value = std::env::var(ENV).ok().filter(|v| !v.trim().is_empty())?;
    Some(parse(&value))
}

/// The API base the webview is given: the relay's when there is one, else
/// the sidecar's own.
pub fn webview_base(sidecar_base: &str, relay: Option<SocketAddrV4>) -> String {
    match relay {
        Some(addr) => format!("http://{addr}"),
        None => sidecar_base.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_loopback_with_a_port() {
        let addr = parse("127.0.0.1:40123").unwrap();
        assert_eq!(addr, SocketAddrV4::new(Ipv4Addr::LOCALHOST, 40123));
        assert_eq!(parse(" 127.0.0.1:9\n").unwrap().port(), 9);
    }

    #[test]
    fn refuses_every_other_host() {
        for value in [
            "localhost:40123",
            "0.0.0.0:40123",
            "127.0.0.2:40123",
            "127.1:40123",
            "192.168.1.5:40123",
            "example.com:40123",
            "[::1]:40123",
            "http://127.0.0.1:40123",
        ] {
            assert!(
                matches!(parse(value), Err(RelayError::NotLoopback(_))),
                "{value} was accepted"
            );
        }
    }

    #[test]
    fn refuses_what_is_not_host_and_port() {
        for value in [
            "127.0.0.1",
            "127.0.0.1:",
            "127.0.0.1:0",
            "127.0.0.1:70000",
            "127.0.0.1:80x",
            "",
        ] {
            assert!(
                matches!(parse(value), Err(RelayError::Malformed(_))),
                "{value} was accepted"
            );
        }
    }

    #[test]
    fn the_webview_gets_the_relay_when_there_is_one() {
        let sidecar = "http://127.0.0.1:5000";
        assert_eq!(webview_base(sidecar, None), sidecar);
        let relay = SocketAddrV4::new(Ipv4Addr::LOCALHOST, 6000);
        assert_eq!(webview_base(sidecar, Some(relay)), "http://127.0.0.1:6000");
    }
}
