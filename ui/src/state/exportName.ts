// The file name an export is saved under: the report's own title (from
// \title{...}, else the session's title), made safe for every file system,
// with the version number — never an internal id such as "session1-v3".

/** The text of \title{...}: commands and braces dropped, ~ and \\ as spaces. */
export function texTitle(tex: string): string {
  const m = /\\title\s*(?:\[[^\]]*\])?\s*\{/.exec(tex);
  if (!m) return "";
  let depth = 1;
  let i = m.index + m[0].length;
  const start = i;
  for (; i < tex.length && depth > 0; i++) {
    if (tex[i] === "\\") i++;
    else if (tex[i] === "{") depth++;
    else if (tex[i] === "}") depth--;
  }
  return tex
    .slice(start, i - 1)
    .replace(/\\\\|~/g, " ")
    .replace(/\\(?:thanks|footnote)\s*\{[^{}]*\}/g, "")
    .replace(/\\[a-zA-Z]+\*?\s*/g, "")
    .replace(/\\(.)/g, "$1")
    .replace(/[{}$^_]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** Safe on Windows, macOS and Linux: no reserved characters, no trailing dot or space, at most 120 characters. */
export function safeFileStem(text: string): string {
  const cleaned = text
    .normalize("NFC")
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .replace(/[. ]+$/, "");
  const short = [...cleaned].slice(0, 120).join("").trim();
  return /^(con|prn|aux|nul|com\d|lpt\d)$/i.test(short) ? `${short}_` : short;
}

/** What the report screen exports; each kind is one GET `.../export/<kind>`. */
export type ExportKind = "pdf" | "zip" | "compendium";

export function exportName(tex: string, sessionTitle: string, versionNo: number, kind: ExportKind): string {
  const stem = safeFileStem(texTitle(tex)) || safeFileStem(sessionTitle) || "report";
  // The compendium is a zip too; its name says it holds the analysis, not the report.
  return kind === "compendium" ? `${stem} (v${versionNo}) analysis.zip` : `${stem} (v${versionNo}).${kind}`;
}
