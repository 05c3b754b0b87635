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

/** Split `tex` into segments; numbers before \begin{document} stay plain text (preamble). */
export function segments(tex: string, index: Map<string, ProvenanceEntry[]>): Segment[] {
  const begin = tex.indexOf("\\begin{document}");
  const bodyStart = begin < 0 ? 0 : begin;
  const out: Segment[] = [];
  if (bodyStart > 0) out.push({ kind: "text", text: tex.slice(0, bodyStart) });
  let last = bodyStart;
  for (const m of tex.slice(bodyStart).matchAll(NUMBER_TOKEN)) {
    const at = bodyStart + (m.index ?? 0);
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
