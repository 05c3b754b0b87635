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
