// Minimal start screen used until the real UI (ui/dist) is bundled instead.
// It follows docs/window-contract.md: state from `sidecar_info` and the
// `sidecar-state` event, folders from `folder-dropped` and `pick_folder`.
(function () {
  const internals = window.__TAURI_INTERNALS__;
  const status = document.getElementById("status");
  const folder = document.getElementById("folder");
  if (!internals) {
    status.textContent = "Open this page in the Labwright window.";
    return;
  }
  const invoke = (cmd, args) => internals.invoke(cmd, args || {});
  function show(s) {
    status.dataset.state = s.state;
    if (s.state === "ready") status.textContent = "Ready.";
    else if (s.state === "failed") status.textContent = s.message + " Log: " + s.log;
    else status.textContent = "Starting…";
  }
  function listen(event, handler) {
    const id = internals.transformCallback((e) => handler(e.payload));
    return invoke("plugin:event|listen", { event: event, target: { kind: "Any" }, handler: id });
  }
  listen("sidecar-state", show);
  listen("folder-dropped", (p) => { folder.textContent = p.paths.join(", "); });
  invoke("sidecar_info").then(show);
  document.getElementById("open").addEventListener("click", () => {
    invoke("pick_folder").then((p) => { if (p) folder.textContent = p; });
  });
})();
