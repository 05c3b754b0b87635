// Saving an export. In a browser the file goes where the browser puts
// downloads (the browser shows them). In the desktop app an anchor download
// saved silently, somewhere that depended on the working folder (issue 21),
// so there the shell shows its native "Save as…" dialog and writes the file
// (`save_export`, src-tauri/src/export.rs, docs/window-contract.md "Exports").
// The name comes from the report (exportName) either way.
import { inShell } from "./conn";
import type { Key, T } from "../i18n";

export type FailReason = "denied" | "full" | "other";

export type SaveResult =
  /** The browser took it as a download; it says where itself. */
  | { outcome: "downloaded" }
  | { outcome: "saved"; path: string; name: string }
  /** The person closed the dialog: nothing was written, nothing to say. */
  | { outcome: "cancelled" }
  | { outcome: "failed"; reason: FailReason; name: string };

/** Tauri's `invoke` with a raw body, injectable for tests. */
export type Invoke = (
  cmd: string,
  body: Uint8Array,
  options: { headers: Record<string, string> },
) => Promise<unknown>;

/** The header the shell reads the suggested name from (export.rs NAME_HEADER). */
export const NAME_HEADER = "x-labwright-name";
/** The headers the shell reads the dialog's title and file type label from
 * (src-tauri/src/dialog_text.rs): the dialog speaks the window's language. */
export const TITLE_HEADER = "x-labwright-title";
export const FILE_TYPE_HEADER = "x-labwright-file-type";

/** The label of the dialog's file type for `name`, for the types the shell
 * filters by (export.rs filter_for); null for any other. */
export function fileTypeKey(name: string): Key | null {
  const ext = /\.([^.]+)$/.exec(name)?.[1]?.toLowerCase();
  return ext === "pdf" ? "fileType_pdf" : ext === "zip" ? "fileType_zip" : null;
}

async function tauriInvoke(cmd: string, body: Uint8Array, options: { headers: Record<string, string> }) {
  const { invoke } = await import("@tauri-apps/api/core");
  return invoke(cmd, body, options);
}

function download(blob: Blob, name: string): SaveResult {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  return { outcome: "downloaded" };
}

/** The shell's answer, checked: anything else counts as a failed save. */
export function asSaveResult(reply: unknown, name: string): SaveResult {
  const r = (reply ?? {}) as Record<string, unknown>;
  if (r.outcome === "cancelled") return { outcome: "cancelled" };
  if (r.outcome === "saved" && typeof r.path === "string")
    return { outcome: "saved", path: r.path, name: typeof r.name === "string" ? r.name : name };
  const reason: FailReason = r.reason === "denied" || r.reason === "full" ? r.reason : "other";
  return { outcome: "failed", reason, name: typeof r.name === "string" && r.name ? r.name : name };
}

/**
 * Saves `blob` under `name`: the native dialog in the desktop app, a download
 * in a browser. `t` is the window's language: the dialog's title and file
 * type are said in it. Never throws for the save itself: a refused write or
 * a shell that did not answer is a "failed" result the screen says in one
 * sentence.
 */
export async function saveExport(
  blob: Blob,
  name: string,
  t: T,
  shell: boolean = inShell(),
  invoke: Invoke = tauriInvoke,
): Promise<SaveResult> {
  if (!shell) return download(blob, name);
  try {
    const bytes = new Uint8Array(await blob.arrayBuffer());
    // Header values are ASCII only; Chinese names and texts are percent-encoded.
    const headers: Record<string, string> = {
      [NAME_HEADER]: encodeURIComponent(name),
      [TITLE_HEADER]: encodeURIComponent(t("dialogSave")),
    };
    const fileType = fileTypeKey(name);
    if (fileType) headers[FILE_TYPE_HEADER] = encodeURIComponent(t(fileType));
    const reply = await invoke("save_export", bytes, { headers });
    return asSaveResult(reply, name);
  } catch {
    return { outcome: "failed", reason: "other", name };
  }
}

/** What the report screen says after a save: one sentence, or nothing. */
export function saveNote(result: SaveResult, t: T): string | null {
  switch (result.outcome) {
    case "saved":
      return t("savedAs", { name: result.path });
    case "failed":
      return t(`saveFailed_${result.reason}` satisfies Key, { name: result.name });
    default:
      return null;
  }
}
