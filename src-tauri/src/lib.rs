//! The Labwright window: a Tauri v2 shell over the frozen sidecar.
//!
//! The window opens at once on the UI's start screen; the sidecar starts in
//! the background and the UI learns its address and token through the
//! `sidecar_info` command and the `sidecar-state` event
//! (docs/window-contract.md). Dropped folders become a `folder-dropped` event.
//! With `LABWRIGHT_WEBVIEW_RELAY` set (tests), the address given to the UI is
//! that relay's (relay.rs). Exports are saved through the native "Save as…"
//! dialog (`save_export`, export.rs); both native dialogs take their texts
//! from the page, in the window's language (dialog_text.rs). The command
//! line is read in main.rs before anything here runs (args.rs).

pub mod args;
pub mod console;
pub mod dialog_text;
pub mod export;
pub mod handshake;
#[cfg(windows)]
mod jobobject;
pub mod paths;
pub mod relay;
pub mod rotlog;
pub mod sidecar;
pub mod state;
pub mod token;

use serde::Serialize;
use sidecar::{Running, SharedLog};
use state::SidecarState;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tauri::{AppHandle, DragDropEvent, Emitter, Manager, RunEvent, WindowEvent};

/// How long the sidecar may take to print its handshake (it prints it before
/// its heavy imports, so this is only hit when it is broken).
const READY_TIMEOUT: Duration = Duration::from_secs(60);
/// How long the sidecar gets to exit after stdin closes before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(3);
const LOG_MAX_BYTES: u64 = 2 * 1024 * 1024;
const LOG_KEEP: usize = 3;

#[derive(Default)]
struct Shared {
    state: Mutex<Option<SidecarState>>,
    running: Mutex<Option<Running>>,
    stopping: Mutex<bool>,
    /// The shell's log (the sidecar's, with `[shell]` lines), once opened.
    log: Mutex<Option<SharedLog>>,
    /// The folder the last export went to in this launch: the next "Save
    /// as…" opens there.
    last_save_dir: Mutex<Option<PathBuf>>,
}

#[derive(Clone, Serialize)]
struct FolderDropped {
    paths: Vec<String>,
}

fn set_state(app: &AppHandle, new: SidecarState) {
    let shared = app.state::<Arc<Shared>>();
    *shared.state.lock().unwrap() = Some(new.clone());
    let _ = app.emit("sidecar-state", new);
}

#[tauri::command]
fn sidecar_info(shared: tauri::State<'_, Arc<Shared>>) -> SidecarState {
    shared
        .state
        .lock()
        .unwrap()
        .clone()
        .unwrap_or(SidecarState::Starting)
}

/// The native folder picker; `title` is the page's, in the window's language
/// (dialog_text.rs; English when absent). The window test finds the dialog
/// by it.
#[tauri::command]
async fn pick_folder(app: AppHandle, title: Option<String>) -> Option<String> {
    use tauri_plugin_dialog::DialogExt;
    let title = dialog_text::one_line(title.as_deref(), dialog_text::PICK_FOLDER_TITLE);
    let mut dialog = app.dialog().file().set_title(title);
    // GTK's chooser otherwise opens on "Recent", which lists files, not
    // folders, and keeps its Open button greyed until the user navigates.
    if cfg!(target_os = "linux") {
        if let Ok(home) = app.path().home_dir() {
            dialog = dialog.set_directory(home);
        }
    }
    let picked = tauri::async_runtime::spawn_blocking(move || dialog.blocking_pick_folder())
        .await
        .ok()
        .flatten()?;
    picked.into_path().ok().map(|p| p.display().to_string())
}

/// Saves an export where the person chooses (export.rs). The page sends the
/// bytes as the raw body and the suggested name, percent-encoded, in the
/// `x-labwright-name` header, and the dialog's title and file type label
/// (the window's language) in `x-labwright-title` and
/// `x-labwright-file-type`; the dialog decides the path, so the page can
/// write nowhere else. Errors of the request itself (no bytes) are the
/// page's bug and come back as a rejected promise.
#[tauri::command]
async fn save_export(
    app: AppHandle,
    request: tauri::ipc::Request<'_>,
) -> Result<export::SaveOutcome, String> {
    use tauri_plugin_dialog::DialogExt;
    let tauri::ipc::InvokeBody::Raw(bytes) = request.body() else {
        return Err("save_export takes the export's bytes as the raw body".into());
    };
    let bytes = bytes.clone();
    let name = export::suggested_name(
        request
            .headers()
            .get(export::NAME_HEADER)
            .and_then(|v| v.to_str().ok()),
    );
    // The dialog's texts, in the window's language (dialog_text.rs).
    let text = |header: &str, fallback: &str| {
        let value = request.headers().get(header).and_then(|v| v.to_str().ok());
        dialog_text::from_header(value, fallback)
    };
    let title = text(dialog_text::TITLE_HEADER, dialog_text::SAVE_TITLE);
    let shared = app.state::<Arc<Shared>>().inner().clone();
    let last = shared.last_save_dir.lock().unwrap().clone();
    let start = export::start_dir(&[
        last,
        app.path().document_dir().ok(),
        app.path().home_dir().ok(),
    ]);
    let filter = export::filter_for(&name);
    let mut dialog = app
        .dialog()
        .file()
        .set_title(title)
        .set_file_name(&name)
        .set_can_create_directories(true);
    if let Some((label, ext)) = filter {
        let label = text(dialog_text::FILE_TYPE_HEADER, label);
        dialog = dialog.add_filter(label, &[ext]);
    }
    if let Some(dir) = start {
        dialog = dialog.set_directory(dir);
    }
    let chosen = tauri::async_runtime::spawn_blocking(move || dialog.blocking_save_file())
        .await
        .ok()
        .flatten()
        .and_then(|p| p.into_path().ok());
    let Some(chosen) = chosen else {
        return Ok(export::SaveOutcome::Cancelled);
    };
    let path = match filter {
        Some((_, ext)) => export::with_extension(chosen, ext),
        None => chosen,
    };
    let target = path.clone();
    let (outcome, error) =
        tauri::async_runtime::spawn_blocking(move || export::save_to(&target, &bytes))
            .await
            .map_err(|e| e.to_string())?;
    match error {
        None => *shared.last_save_dir.lock().unwrap() = path.parent().map(PathBuf::from),
        Some(e) => {
            // The person reads one sentence; the OS's words are kept here.
            if let Some(log) = shared.log.lock().unwrap().as_ref() {
                sidecar::log_line(
                    log,
                    &format!("[shell] saving {} failed: {e}", path.display()),
                );
            }
        }
    }
    Ok(outcome)
}

fn start_sidecar(app: &AppHandle) {
    let data = paths::data_dir(app);
    let log_path = data.join("logs").join("sidecar.log");
    let log: SharedLog = Arc::new(Mutex::new(
        rotlog::RotatingLog::open(&log_path, LOG_MAX_BYTES, LOG_KEEP).ok(),
    ));
    *app.state::<Arc<Shared>>().log.lock().unwrap() = Some(log.clone());
    set_state(app, SidecarState::Starting);
    // Read once, before the sidecar starts: a bad value is said in the log
    // and ignored, so the window still works, talking to the sidecar directly.
    let relay = match relay::from_env() {
        Some(Ok(addr)) => Some(addr),
        Some(Err(e)) => {
            sidecar::log_line(&log, &format!("[shell] {e}"));
            None
        }
        None => None,
    };

    let fail = |app: &AppHandle, why: &dyn std::fmt::Display| {
        sidecar::log_line(&log, &format!("[shell] {why}"));
        set_state(
            app,
            SidecarState::failed(
                "Labwright's engine did not start; the log says why.",
                &log_path,
            ),
        );
    };

    let Some(exe) = paths::sidecar_executable(app) else {
        fail(
            app,
            &"the sidecar executable is missing from the app bundle",
        );
        return;
    };
    let mut cmd = std::process::Command::new(&exe);
    cmd.args([
        "serve",
        "--port",
        "0",
        "--parent-pid",
        &std::process::id().to_string(),
    ]);
    cmd.env("LABWRIGHT_HOME", &data);
    if let Some(dir) = exe.parent() {
        cmd.current_dir(dir);
    }

    let exit_app = app.clone();
    let on_exit: Box<dyn FnOnce() + Send> = Box::new(move || {
        let shared = exit_app.state::<Arc<Shared>>();
        let stopping = *shared.stopping.lock().unwrap();
        let was_ready = matches!(
            *shared.state.lock().unwrap(),
            Some(SidecarState::Ready { .. })
        );
        if !stopping && was_ready {
            let log = paths::data_dir(&exit_app).join("logs").join("sidecar.log");
            set_state(
                &exit_app,
                SidecarState::failed(
                    "Labwright's engine stopped unexpectedly; restart the app.",
                    &log,
                ),
            );
        }
    });

    let token = token::new_token();
    // Spawned here, on the main thread, which lives as long as the app: the
    // sidecar's Linux parent-death signal follows the thread that forked it.
    let pending = match sidecar::spawn(cmd, &token, log.clone(), Some(on_exit)) {
        Ok(p) => p,
        Err(e) => {
            fail(app, &e);
            return;
        }
    };
    let app = app.clone();
    std::thread::spawn(move || match pending.wait_ready(READY_TIMEOUT) {
        Ok(running) => {
            let base = running.handshake.base_url();
            let shared = app.state::<Arc<Shared>>();
            let stopping = *shared.stopping.lock().unwrap();
            if stopping {
                running.stop(EXIT_GRACE);
                return;
            }
            *shared.running.lock().unwrap() = Some(running);
            let shown = relay::webview_base(&base, relay);
            if shown != base {
                // The relay's owner reads where to forward to from this line.
                sidecar::log_line(
                    &log,
                    &format!("[shell] the webview talks through the relay at {shown} to the sidecar at {base}"),
                );
            }
            set_state(&app, SidecarState::Ready { base: shown, token });
        }
        Err(e) => {
            sidecar::log_line(&log, &format!("[shell] {e}"));
            set_state(
                &app,
                SidecarState::failed(
                    "Labwright's engine did not start; the log says why.",
                    &log_path,
                ),
            );
        }
    });
}

fn stop_sidecar(app: &AppHandle) {
    let shared = app.state::<Arc<Shared>>();
    *shared.stopping.lock().unwrap() = true;
    let running = shared.running.lock().unwrap().take();
    if let Some(r) = running {
        r.stop(EXIT_GRACE);
    }
}

fn dropped_paths(paths: &[PathBuf]) -> Vec<String> {
    paths
        .iter()
        .filter(|p| p.is_absolute())
        .map(|p| p.display().to_string())
        .collect()
}

pub fn run() {
    let app = tauri::Builder::default()
        .plugin(tauri_plugin_dialog::init())
        .manage(Arc::new(Shared::default()))
        .setup(|app| {
            start_sidecar(app.handle());
            Ok(())
        })
        .on_window_event(|window, event| {
            if let WindowEvent::DragDrop(DragDropEvent::Drop { paths, .. }) = event {
                let paths = dropped_paths(paths);
                if !paths.is_empty() {
                    let _ = window.emit("folder-dropped", FolderDropped { paths });
                }
            }
        })
        .invoke_handler(tauri::generate_handler![
            sidecar_info,
            pick_folder,
            save_export
        ])
        .build(tauri::generate_context!())
        .expect("the Labwright window could not be created");
    app.run(|handle, event| {
        if let RunEvent::Exit = event {
            stop_sidecar(handle);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_absolute_dropped_paths_are_forwarded() {
        let got = dropped_paths(&[PathBuf::from("/data/run1"), PathBuf::from("relative/x")]);
        assert_eq!(got, vec!["/data/run1".to_string()]);
    }
}
