// Every reference's verdict from the citation check (the provenance record's
// `citations`), in the order a reader acts on them: what needs a look first
// (likely invented, a correction to accept), what could not be checked, then
// what the indexes vouch for.
import type { components } from "../api/schema";

export type CitationVerdict = components["schemas"]["CitationVerdict"];
export type VerdictKind = CitationVerdict["verdict"];

const ORDER: Record<VerdictKind, number> = { not_found: 0, corrected: 1, unverifiable: 2, verified: 3 };

/** Verdicts sorted for reading: by verdict (see ORDER), then by key. */
export function sortedVerdicts(verdicts: readonly CitationVerdict[]): CitationVerdict[] {
  return [...verdicts].sort((a, b) => ORDER[a.verdict] - ORDER[b.verdict] || a.key.localeCompare(b.key));
}

/** How many references have each verdict (every kind present, zero or not). */
export function countVerdicts(verdicts: readonly CitationVerdict[]): Record<VerdictKind, number> {
  const counts: Record<VerdictKind, number> = { not_found: 0, corrected: 0, unverifiable: 0, verified: 0 };
  for (const v of verdicts) counts[v.verdict] += 1;
  return counts;
}

/** A correction the person can propose: the user's own entry, with the fixed entry. */
export function canPropose(v: CitationVerdict): boolean {
  return v.verdict === "corrected" && v.origin === "user" && !!v.proposal?.entry;
}

/** "field: entry → record" lines of a correction. */
export function differenceLines(v: CitationVerdict): string[] {
  return v.differences.map((d) => `${d.field}: ${d.entry || "—"} → ${d.record || "—"}`);
}

/** The record that decided, as one line: authors (year). Title. Venue. */
export function evidenceLine(v: CitationVerdict): string {
  const e = v.evidence;
  if (!e) return "";
  const authors = e.authors.length > 3 ? `${e.authors.slice(0, 3).join(", ")} et al.` : e.authors.join(", ");
  const year = e.year ? ` (${e.year})` : "";
  return [`${authors}${year}`.trim(), e.title, e.venue].filter((x) => x).join(". ");
}

/** The window event the chat panel reloads its proposals on. */
export const PROPOSALS_CHANGED = "labwright:proposals-changed";
