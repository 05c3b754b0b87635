// How the UI learns the API's base URL and token (docs/window-contract.md):
// from the Tauri shell's `sidecar_info` command and `sidecar-state` event in
// the desktop app, from the page's `#token=` fragment in a browser. The token is
// never put in a URL the UI builds and never logged.

export interface Conn {
  base: string;
  token: string;
}

export type ConnState =
  | { state: "starting" }
  | { state: "ready"; conn: Conn }
  | { state: "failed"; message: string; log?: string };

const TOKEN_KEY = "labwright.token";

export function inShell(win: object = window): boolean {
  return "__TAURI_INTERNALS__" in win;
}

/** The token from `#token=…` (kept in sessionStorage, fragment removed), else the stored one. */
export function browserToken(
  loc: Pick<Location, "hash" | "pathname" | "search">,
  storage: Pick<Storage, "getItem" | "setItem">,
  hist: Pick<History, "replaceState">,
): string | null {
  const match = /^#token=([A-Za-z0-9_\-.~]+)$/.exec(loc.hash);
  if (match?.[1]) {
    storage.setItem(TOKEN_KEY, match[1]);
    hist.replaceState(null, "", loc.pathname + loc.search);
    return match[1];
  }
  return storage.getItem(TOKEN_KEY);
}

interface ShellInfo {
  state: "starting" | "ready" | "failed";
  base?: string;
  token?: string;
  message?: string;
  log?: string;
}

function fromShell(info: ShellInfo): ConnState {
  if (info.state === "ready" && info.base && info.token) {
    return { state: "ready", conn: { base: info.base.replace(/\/$/, ""), token: info.token } };
  }
  if (info.state === "failed") {
    return { state: "failed", message: info.message ?? "", log: info.log };
  }
  return { state: "starting" };
}

/** Calls `onChange` with every state until the returned function is called. */
export function connect(onChange: (s: ConnState) => void): () => void {
  if (!inShell()) {
    const token = browserToken(window.location, window.sessionStorage, window.history);
    onChange(
      token
        ? { state: "ready", conn: { base: window.location.origin, token } }
        : { state: "failed", message: "" },
    );
    return () => undefined;
  }
  let stopped = false;
  let unlisten: (() => void) | undefined;
  void (async () => {
    const [{ invoke }, { listen }] = await Promise.all([
      import("@tauri-apps/api/core"),
      import("@tauri-apps/api/event"),
    ]);
    const off = await listen<ShellInfo>("sidecar-state", (e) => {
      if (!stopped) onChange(fromShell(e.payload));
    });
    if (stopped) off();
    else unlisten = off;
    const info = await invoke<ShellInfo>("sidecar_info");
    if (!stopped) onChange(fromShell(info));
  })().catch(() => {
    if (!stopped) onChange({ state: "failed", message: "" });
  });
  return () => {
    stopped = true;
    unlisten?.();
  };
}

/** Tauri's `invoke` with JSON arguments, injectable for tests. */
export type InvokeArgs = (cmd: string, args: Record<string, unknown>) => Promise<unknown>;

async function tauriInvoke(cmd: string, args: Record<string, unknown>): Promise<unknown> {
  const { invoke } = await import("@tauri-apps/api/core");
  return invoke(cmd, args);
}

/**
 * Desktop only: the shell's folder picker; null when cancelled. `title` is
 * the picker's title in the window's language (the catalogue's
 * `dialogPickFolder`): the shell keeps no interface text of its own.
 */
export async function pickFolder(title: string, invoke: InvokeArgs = tauriInvoke): Promise<string | null> {
  const picked = await invoke("pick_folder", { title });
  return typeof picked === "string" && picked ? picked : null;
}

/** Desktop only: folders dropped on the window, as absolute paths. */
export async function onFolderDropped(handler: (paths: string[]) => void): Promise<() => void> {
  const { listen } = await import("@tauri-apps/api/event");
  return listen<{ paths: string[] }>("folder-dropped", (e) => handler(e.payload.paths));
}
