//! Where things are: the user's data directory (shared with the sidecar) and
//! the frozen sidecar inside the bundle.

use std::path::PathBuf;
use tauri::{AppHandle, Manager};

/// Same place the sidecar uses (platformdirs' user data dir for "Labwright",
/// no author level): LABWRIGHT_HOME wins, then the OS's local data dir.
pub fn data_dir(app: &AppHandle) -> PathBuf {
    if let Some(home) = std::env::var_os("LABWRIGHT_HOME").filter(|v| !v.is_empty()) {
        return PathBuf::from(home);
    }
    app.path()
        .local_data_dir()
        .map(|d| d.join("Labwright"))
        .unwrap_or_else(|_| std::env::temp_dir().join("Labwright"))
}

pub fn sidecar_name() -> &'static str {
    if cfg!(windows) {
        "labwright-sidecar.exe"
    } else {
        "labwright-sidecar"
    }
}

/// `LABWRIGHT_SIDECAR` (developers, tests) or the onedir folder shipped as
/// bundle resources under `sidecar/`.
pub fn sidecar_executable(app: &AppHandle) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("LABWRIGHT_SIDECAR").filter(|v| !v.is_empty()) {
        let p = PathBuf::from(path);
        return p.is_file().then_some(p);
    }
    let resources = app.path().resource_dir().ok()?;
    let p = resources.join("sidecar").join(sidecar_name());
    p.is_file().then_some(p)
}
