// Line diff of two versions as rows for the view (jsdiff), with counts.
import { diffLines } from "diff";

export interface DiffRow {
  kind: "same" | "added" | "removed";
  oldNo: number | null;
  newNo: number | null;
  text: string;
}

export function diffRows(oldText: string, newText: string): { rows: DiffRow[]; added: number; removed: number } {
  const rows: DiffRow[] = [];
  let oldNo = 1;
  let newNo = 1;
  let added = 0;
  let removed = 0;
  for (const part of diffLines(oldText, newText)) {
    const lines = part.value.replace(/\n$/, "").split("\n");
    for (const text of lines) {
      if (part.added) {
        rows.push({ kind: "added", oldNo: null, newNo: newNo++, text });
        added++;
      } else if (part.removed) {
        rows.push({ kind: "removed", oldNo: oldNo++, newNo: null, text });
        removed++;
      } else {
        rows.push({ kind: "same", oldNo: oldNo++, newNo: newNo++, text });
      }
    }
  }
  return { rows, added, removed };
}

/** Unchanged runs longer than 2*context lines are folded to keep the view short. */
export function foldContext(rows: readonly DiffRow[], context = 3): Array<DiffRow | { kind: "fold"; count: number }> {
  const out: Array<DiffRow | { kind: "fold"; count: number }> = [];
  let i = 0;
  while (i < rows.length) {
    if (rows[i]!.kind !== "same") {
      out.push(rows[i]!);
      i++;
      continue;
    }
    let j = i;
    while (j < rows.length && rows[j]!.kind === "same") j++;
    const run = rows.slice(i, j);
    const head = i === 0 ? 0 : context;
    const tail = j === rows.length ? 0 : context;
    if (run.length > head + tail + 1) {
      out.push(...run.slice(0, head), { kind: "fold", count: run.length - head - tail }, ...run.slice(run.length - tail));
    } else out.push(...run);
    i = j;
  }
  return out;
}

/**
 * What a diff's counts say: "The two versions are identical." when nothing
 * changed (issue 21: identical versions showed "+0 −0"), else the counts.
 * The versions screen and the chat cards both say it this way.
 */
export function changeCount(t: (key: "identical" | "added" | "removed") => string, diff: { added: number; removed: number }): string {
  return diff.added + diff.removed === 0
    ? t("identical")
    : `+${diff.added} ${t("added")}, −${diff.removed} ${t("removed")}`;
}
