//! What the UI learns through `sidecar_info` and the `sidecar-state` event
//! (docs/window-contract.md). The token appears only in `Ready`, which goes
//! to our own webview over IPC and nowhere else.

use serde::Serialize;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "state", rename_all = "lowercase")]
pub enum SidecarState {
    Starting,
    Ready { base: String, token: String },
    Failed { message: String, log: String },
}

impl SidecarState {
    /// One sentence, plus where the log is (the UI shows both).
    pub fn failed(message: &str, log: &std::path::Path) -> Self {
        SidecarState::Failed {
            message: message.to_string(),
            log: log.display().to_string(),
        }
    }
}

/// Debug output must not leak the token (panics and logs print states).
pub fn redacted(state: &SidecarState) -> String {
    match state {
        SidecarState::Ready { base, .. } => format!("ready at {base}"),
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn serializes_as_the_contract_says() {
        assert_eq!(
            serde_json::to_value(SidecarState::Starting).unwrap(),
            json!({"state": "starting"})
        );
        let ready = SidecarState::Ready {
            base: "http://127.0.0.1:5".into(),
            token: "t".into(),
        };
        assert_eq!(
            serde_json::to_value(&ready).unwrap(),
            json!({"state": "ready", "base": "http://127.0.0.1:5", "token": "t"})
        );
        let failed = SidecarState::failed("It broke.", std::path::Path::new("/x/sidecar.log"));
        assert_eq!(
            serde_json::to_value(failed).unwrap(),
            json!({"state": "failed", "message": "It broke.", "log": "/x/sidecar.log"})
        );
    }

    #[test]
    fn redaction_hides_the_token() {
        let ready = SidecarState::Ready {
            base: "http://127.0.0.1:5".into(),
            token: "secret".into(),
        };
        assert!(!redacted(&ready).contains("secret"));
    }
}
