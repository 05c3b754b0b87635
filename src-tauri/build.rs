fn main() {
    // Declare the app's own commands so capabilities can grant exactly them
    // (without a manifest every app command is reachable from the webview).
    tauri_build::try_build(tauri_build::Attributes::new().app_manifest(
        tauri_build::AppManifest::new().commands(&["sidecar_info", "pick_folder", "save_export"]),
    ))
    .expect("failed to run tauri-build");
}
