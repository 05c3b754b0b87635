import { describe, expect, it } from "vitest";
import { NAME_HEADER, asSaveResult, saveExport, saveNote, type Invoke } from "../src/api/save";
import { translator } from "../src/i18n";

const en = translator("en");
const zh = translator("zh");
const name = "植物生长 (v1).pdf";
const blob = new Blob([new Uint8Array([37, 80, 68, 70])]);

/** A shell double: records the call, answers with `reply` (or throws it). */
function shell(reply: unknown, reject = false) {
  const calls: { cmd: string; body: Uint8Array; headers: Record<string, string> }[] = [];
  const invoke: Invoke = async (cmd, body, options) => {
    calls.push({ cmd, body, headers: options.headers });
    if (reject) throw reply;
    return reply;
  };
  return { calls, invoke };
}

describe("saving an export in the desktop app", () => {
  it("sends the bytes and the title's name (percent-encoded) to the shell's Save dialog", async () => {
    const { calls, invoke } = shell({ outcome: "saved", path: "/home/u/Documents/" + name, name });
    const result = await saveExport(blob, name, zh, true, invoke);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.cmd).toBe("save_export");
    expect([...calls[0]!.body]).toEqual([37, 80, 68, 70]);
    const header = calls[0]!.headers[NAME_HEADER]!;
    expect(/^[\x20-\x7e]*$/.test(header)).toBe(true);
    expect(decodeURIComponent(header)).toBe(name);
    expect(result).toEqual({ outcome: "saved", path: "/home/u/Documents/" + name, name });
    expect(saveNote(result, en)).toBe(`Saved as /home/u/Documents/${name}.`);
    expect(saveNote(result, zh)).toBe(`已保存为 /home/u/Documents/${name}。`);
  });

  it("says nothing when the dialog is cancelled", async () => {
    const { invoke } = shell({ outcome: "cancelled" });
    const result = await saveExport(blob, name, zh, true, invoke);
    expect(result).toEqual({ outcome: "cancelled" });
    expect(saveNote(result, en)).toBeNull();
    expect(saveNote(result, zh)).toBeNull();
  });

  it("says a failed write in one sentence with what to do, in both languages", async () => {
    for (const reason of ["denied", "full", "other"] as const) {
      const { invoke } = shell({ outcome: "failed", reason, name });
      const result = await saveExport(blob, name, zh, true, invoke);
      expect(result).toEqual({ outcome: "failed", reason, name });
      for (const [t, end] of [[en, "."], [zh, "。"]] as const) {
        const text = saveNote(result, t)!;
        expect(text).toContain(name);
        expect(text.endsWith(end) || text.endsWith("）。") || text.endsWith(").")).toBe(true);
        // One sentence: no sentence end before the last character.
        expect(text.slice(0, -1).replace(name, "").replace(/\(.*\)|（.*）/, "")).not.toMatch(/[.。](\s|$)/);
      }
    }
    expect(saveNote({ outcome: "failed", reason: "full", name }, en)).toMatch(/disk is full; free some space/);
  });

  it("treats a shell that fails or answers nonsense as a failed save, never a throw", async () => {
    const broken = shell(new Error("ipc gone"), true);
    expect(await saveExport(blob, name, zh, true, broken.invoke)).toEqual({ outcome: "failed", reason: "other", name });
    expect(asSaveResult(undefined, name)).toEqual({ outcome: "failed", reason: "other", name });
    expect(asSaveResult({ outcome: "saved" }, name)).toEqual({ outcome: "failed", reason: "other", name });
    expect(asSaveResult({ outcome: "failed", reason: "weird" }, name)).toEqual({ outcome: "failed", reason: "other", name });
  });

  it("never calls the shell in a browser", async () => {
    const { calls, invoke } = shell({ outcome: "saved", path: "/x", name });
    const clicked: string[] = [];
    const g = globalThis as unknown as { document?: unknown; URL: typeof URL };
    const hadDocument = "document" in g;
    const before = g.document;
    g.document = { createElement: () => ({ click() { clicked.push(this.download); }, href: "", download: "" }) };
    try {
      const result = await saveExport(blob, name, zh, false, invoke);
      expect(result).toEqual({ outcome: "downloaded" });
      expect(saveNote(result, en)).toBeNull();
    } finally {
      if (hadDocument) g.document = before;
      else delete g.document;
    }
    expect(calls).toHaveLength(0);
    expect(clicked).toEqual([name]);
  });
});
