// The scan's inventory by kind; entries with a note were listed but not read.
import type { components } from "../api/schema";

type Entry = components["schemas"]["InventoryEntry"];

export function groupInventory(entries: readonly Entry[]): {
  groups: Array<[string, Entry[]]>;
  skipped: Entry[];
} {
  const groups = new Map<string, Entry[]>();
  const skipped: Entry[] = [];
  for (const e of entries) {
    if (e.note) {
      skipped.push(e);
      continue;
    }
    const kind = e.bucket ?? "other";
    groups.set(kind, [...(groups.get(kind) ?? []), e]);
  }
  return { groups: [...groups.entries()].sort(([a], [b]) => a.localeCompare(b)), skipped };
}
