// Where each printed number came from: the report's source is split into text
// and number tokens (the same token rule the sidecar's provenance check uses),
// and each token is looked up in the version's provenance record.
import type { components } from "../api/schema";

export type ProvenanceEntry = components["schemas"]["ProvenanceNumber"];

/** A number as the sidecar's formatter prints it, optionally in scientific form. */
export const NUMBER_TOKEN = /(?<![\w.])-?\d+(?:\.\d+)?(?:\\times10\^\{-?\d+\})?/g;

export type Segment = { kind: "text"; text: string } | { kind: "number"; text: string; entries: ProvenanceEntry[] };

export function indexByPrinted(entries: readonly ProvenanceEntry[]): Map<string, ProvenanceEntry[]> {
  const index = new Map<string, ProvenanceEntry[]>();
  for (const e of entries) index.set(e.printed, [...(index.get(e.printed) ?? []), e]);
  return index;
}

export function lookup(index: Map<string, ProvenanceEntry[]>, token: string): ProvenanceEntry[] {
  return index.get(token) ?? [];
}

/**
 * Text the sidecar's check sets aside before looking for numbers: comments,
 * quotes from the folder's documents, file names and table/figure structure.
 * A digit in there is not a measured number, so it is shown as plain text.
 */
const NOT_NUMBERS = [
  /(?<!\\)%.*$/gm,
  /\\begin\{quote\}[\s\S]*?\\end\{quote\}/g,
  /\\lw(?:file|text)\{(?:[^{}]|\{[^{}]*\})*\}/g,
  /\\includegraphics\s*\[[^\]]*\]\s*\{[^{}]*\}/g,
  /\\begin\{tabular\}\{[^{}]*\}/g,
  /[\d.]+\\(?:linewidth|textheight|textwidth)/g,
  /R\^2/g,
  /\\(?:label|ref|eqref|cite[a-z]*|input|include|bibliography|bibliographystyle)\{[^{}]*\}/g,
];

function excluded(tex: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const re of NOT_NUMBERS) for (const m of tex.matchAll(re)) spans.push([m.index ?? 0, (m.index ?? 0) + m[0].length]);
  return spans;
}

/** Split `tex` into segments; numbers before \begin{document} stay plain text (preamble). */
export function segments(tex: string, index: Map<string, ProvenanceEntry[]>): Segment[] {
  const begin = tex.indexOf("\\begin{document}");
  const bodyStart = begin < 0 ? 0 : begin;
  const skip = excluded(tex);
  const out: Segment[] = [];
  if (bodyStart > 0) out.push({ kind: "text", text: tex.slice(0, bodyStart) });
  let last = bodyStart;
  for (const m of tex.slice(bodyStart).matchAll(NUMBER_TOKEN)) {
    const at = bodyStart + (m.index ?? 0);
    if (skip.some(([a, b]) => at >= a && at < b)) continue;
    if (at > last) out.push({ kind: "text", text: tex.slice(last, at) });
    out.push({ kind: "number", text: m[0], entries: lookup(index, m[0]) });
    last = at + m[0].length;
  }
  if (last < tex.length) out.push({ kind: "text", text: tex.slice(last) });
  return out;
}

/** One line describing a source: file › sheet › variable › column. */
export function describeSource(e: ProvenanceEntry): string {
  return [e.file, e.sheet, e.variable, e.column].filter((x): x is string => !!x).join(" › ");
}

/** A number of the folder as a whole (how many files, datasets, runs): the
 * record names no file, or the folder itself ("."), and no sheet, variable or
 * column. "File: ." read as a lost source, so the popover says "the folder". */
export function folderLevel(e: ProvenanceEntry): boolean {
  return (!e.file || e.file === ".") && !e.sheet && !e.variable && !e.column;
}

// --- tagged numbers ----------------------------------------------------------
// The writer tags each number it emits with the id of its provenance entry; in
// the TeX that is `\hyperlink{lwnum.<id>}{<printed>}` (or the writer's own
// `\lwnum{<id>}{<printed>}` macro that expands to it). The PDF carries the same
// id as a link destination (pdf/links.ts), so a click on the page and the
// source line are joined by the id, never by the printed digits.

export type TaggedEntry = ProvenanceEntry & { id?: string | null };

export interface Tag {
  id: string;
  /** The tag's whole source text, from the backslash to the closing brace. */
  start: number;
  end: number;
  /** The printed number inside the tag (its second argument). */
  printed: string;
  /** 1-based line of the tag's start. */
  line: number;
}

// `\lwnum{id}{printed}` (the report class's macro, spaces allowed as TeX reads
// them) or the `\hyperlink{lwnum.id}{printed}` it expands to.
const TAG_START = /\\(?:hyperlink\s*\{lwnum\.([^{}\s]+)\}|lwnum\s*\{\s*([^{}\s]+)\s*\})\s*\{/g;

/** The end of a brace group opened just before `from` (depth 1), or -1. */
function closeBrace(tex: string, from: number): number {
  let depth = 1;
  for (let i = from; i < tex.length; i++) {
    const c = tex[i];
    if (c === "\\") {
      i++; // an escaped brace does not count
      continue;
    }
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

const COMMENT = /(?<!\\)%.*$/gm;

export function findTags(tex: string): Tag[] {
  const tags: Tag[] = [];
  const comments = [...tex.matchAll(COMMENT)].map((m) => [m.index ?? 0, (m.index ?? 0) + m[0].length] as const);
  let line = 1;
  let counted = 0;
  for (const m of tex.matchAll(TAG_START)) {
    const start = m.index ?? 0;
    if (comments.some(([a, b]) => start >= a && start < b)) continue; // a tag in a comment is only text
    const open = start + m[0].length;
    const close = closeBrace(tex, open);
    if (close < 0) continue;
    for (; counted < start; counted++) if (tex.charCodeAt(counted) === 10) line++;
    tags.push({ id: (m[1] ?? m[2])!, start, end: close + 1, printed: tex.slice(open, close), line });
  }
  return tags;
}

export function entriesById(entries: readonly TaggedEntry[]): Map<string, TaggedEntry> {
  const byId = new Map<string, TaggedEntry>();
  for (const e of entries) if (e.id) byId.set(e.id, e);
  return byId;
}

/** A line of the source, split into plain text and tagged numbers. */
export type LinePart = { kind: "text"; text: string } | { kind: "tag"; text: string; tag: Tag };

export function sourceLines(tex: string, tags: readonly Tag[]): LinePart[][] {
  const lines: LinePart[][] = [[]];
  const push = (text: string) => {
    const pieces = text.split("\n");
    pieces.forEach((piece, i) => {
      if (i > 0) lines.push([]);
      if (piece) lines[lines.length - 1]!.push({ kind: "text", text: piece });
    });
  };
  let last = 0;
  for (const tag of tags) {
    if (tag.start < last) continue;
    push(tex.slice(last, tag.start));
    const text = tex.slice(tag.start, tag.end);
    if (text.includes("\n")) push(text); // a tag broken over lines is shown as text
    else lines[lines.length - 1]!.push({ kind: "tag", text, tag });
    last = tag.end;
  }
  push(tex.slice(last));
  return lines;
}
