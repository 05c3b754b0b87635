import { describe, expect, it } from "vitest";
import { changeCount, diffRows, foldContext } from "../src/state/diff";
import { describeSource, folderLevel, indexByPrinted, lookup, segments, type ProvenanceEntry } from "../src/state/provenance";
import { keyProblem, validateSettings, type SettingsForm } from "../src/state/settings";
import { groupInventory } from "../src/state/inventory";
import { browserToken } from "../src/api/conn";
import { commonRoot } from "../src/api/upload";
import { isUploadedCopy, runState } from "../src/state/sessions";
import { parseRoute, href } from "../src/route";
import { dictionaries, systemLang, translator } from "../src/i18n";
import { resolveTheme } from "../src/theme";

describe("diff view data", () => {
  it("numbers lines on both sides and counts changes", () => {
    const { rows, added, removed } = diffRows("a\nb\nc\n", "a\nB\nc\nd\n");
    expect({ added, removed }).toEqual({ added: 2, removed: 1 });
    expect(rows).toEqual([
      { kind: "same", oldNo: 1, newNo: 1, text: "a" },
      { kind: "removed", oldNo: 2, newNo: null, text: "b" },
      { kind: "added", oldNo: null, newNo: 2, text: "B" },
      { kind: "same", oldNo: 3, newNo: 3, text: "c" },
      { kind: "added", oldNo: null, newNo: 4, text: "d" },
    ]);
  });

  it("identical versions have no changes; folding keeps context around changes", () => {
    expect(diffRows("x\ny\n", "x\ny\n")).toMatchObject({ added: 0, removed: 0 });
    const old = Array.from({ length: 30 }, (_, i) => `l${i}`).join("\n");
    const neu = old.replace("l15", "L15");
    const folded = foldContext(diffRows(old, neu).rows, 2);
    const kinds = folded.map((r) => r.kind);
    expect(kinds.filter((k) => k === "fold")).toHaveLength(2);
    expect(kinds.filter((k) => k === "same")).toHaveLength(4);
    expect(folded.some((r) => r.kind === "added" && r.text === "L15")).toBe(true);
  });
});

const ENTRIES: ProvenanceEntry[] = [
  { printed: "9.81", value: 9.81, computation: "fit of T^2 against L", file: "periods.csv", column: "T (s)" },
  { printed: "0.02", value: 0.02, computation: "standard uncertainty of fit", file: "periods.csv" },
  { printed: "1.2\\times10^{-3}", value: 0.0012, computation: "mean", file: "a.xlsx", sheet: "S1", column: "x" },
];

describe("what a diff says (issue 21: identical versions showed +0 −0)", () => {
  it("says two identical versions are identical, in either language, and counts changes otherwise", () => {
    const same = diffRows("a\nb\n", "a\nb\n");
    expect(changeCount(translator("en"), same)).toBe("The two versions are identical.");
    expect(changeCount(translator("zh"), same)).toBe("两个版本完全相同。");
    expect(changeCount(translator("en"), same)).not.toMatch(/\+0/);
    expect(changeCount(translator("en"), diffRows("a\nb\n", "a\nc\nd\n"))).toBe("+2 added, −1 removed");
  });
});

describe("provenance lookup", () => {
  const index = indexByPrinted(ENTRIES);
  const tex = [
    "\\documentclass{article}\\setlength{\\x}{12pt}",
    "\\begin{document}",
    "% 77 in a comment",
    "g = $9.81 \\pm 0.02$ and $1.2\\times10^{-3}$ and 3.14.",
    "\\lwfile{run2.csv} \\includegraphics[width=0.8\\linewidth]{fig01.pdf}",
    "\\begin{quote}\nAngle 5 degrees.\n\\end{quote}",
    "\\end{document}",
  ].join("\n");
  const segs = segments(tex, index);
  const numbers = segs.filter((s) => s.kind === "number");

  it("finds each number in the body with its entries, and nothing in the preamble or set-aside text", () => {
    expect(numbers.map((n) => n.text)).toEqual(["9.81", "0.02", "1.2\\times10^{-3}", "3.14"]);
    expect(numbers.map((n) => (n.kind === "number" ? n.entries.length : -1))).toEqual([1, 1, 1, 0]);
    expect(segs.map((s) => s.text).join("")).toBe(tex); // nothing lost or reordered
  });

  it("describes a source as file › sheet › column", () => {
    expect(describeSource(lookup(index, "1.2\\times10^{-3}")[0]!)).toBe("a.xlsx › S1 › x");
    expect(lookup(index, "42")).toEqual([]);
  });

  it("tells a number of the folder as a whole from one of a file", () => {
    const base = { printed: "2", value: 2, computation: "files in the folder inventory" } as ProvenanceEntry;
    expect(folderLevel({ ...base, file: "." })).toBe(true);
    expect(folderLevel({ ...base, file: null })).toBe(true);
    expect(folderLevel({ ...base, file: "a.csv" })).toBe(false);
    expect(folderLevel({ ...base, file: ".", column: "x" })).toBe(false);
  });
});

const FORM: SettingsForm = {
  provider: "openai",
  base_url: "",
  models: { main: "gpt-4.1", cheap: "", vision: "" },
  offline: false,
  local_detection: false,
};

describe("settings validation", () => {
  const ids = ["openai", "deepseek", "ollama"];
  it("accepts a valid form and an empty base URL", () => {
    expect(validateSettings(FORM, ids)).toEqual({});
    expect(validateSettings({ ...FORM, base_url: "http://127.0.0.1:11434/v1" }, ids)).toEqual({});
  });
  it("names each bad field", () => {
    expect(validateSettings({ ...FORM, provider: "nope" }, ids)).toHaveProperty("provider");
    expect(validateSettings({ ...FORM, base_url: "ftp://x" }, ids)).toHaveProperty("base_url");
    expect(validateSettings({ ...FORM, base_url: "not a url" }, ids)).toHaveProperty("base_url");
    expect(validateSettings({ ...FORM, base_url: "https://u:sk-1@host/v1" }, ids)).toHaveProperty("base_url");
    expect(validateSettings({ ...FORM, models: { ...FORM.models, main: "gpt 4" } }, ids)).toHaveProperty("main");
  });
  it("checks a key without ever repeating it", () => {
    expect(keyProblem("sk-abc")).toBeNull();
    for (const bad of ["", "  ", "sk-a b", "sk-a\nb", "x".repeat(5000)]) {
      const p = keyProblem(bad);
      expect(p).toBeTruthy();
      if (bad.trim()) expect(p).not.toContain(bad.trim().slice(0, 4));
    }
  });
});

describe("small pieces", () => {
  it("groups the inventory by kind and lists skipped files with their reason", () => {
    const g = groupInventory([
      { path: "b.csv", bucket: "data", size: 1 },
      { path: "a.png", bucket: "image", size: 2 },
      { path: "c.csv", bucket: "data", size: 3 },
      { path: "link", bucket: "other", size: 0, note: "a link to a place outside the folder; not read" },
    ]);
    expect(g.groups.map(([k, e]) => [k, e.length])).toEqual([["data", 2], ["image", 1]]);
    expect(g.skipped.map((e) => e.path)).toEqual(["link"]);
  });

  it("reads the token from the fragment once, stores it and removes it", () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    const replaced: string[] = [];
    const hist = { replaceState: (_d: unknown, _t: string, url?: string | URL | null) => void replaced.push(String(url)) };
    expect(browserToken({ hash: "#token=abc_DEF-1", pathname: "/", search: "" }, storage, hist)).toBe("abc_DEF-1");
    expect(replaced).toEqual(["/"]);
    expect(browserToken({ hash: "", pathname: "/", search: "" }, storage, hist)).toBe("abc_DEF-1");
    expect(browserToken({ hash: "#token=<script>", pathname: "/", search: "" }, { getItem: () => null, setItem: () => undefined }, hist)).toBeNull();
  });

  it("strips the dropped folder's own name from upload paths", () => {
    expect(commonRoot(["trip/a.csv", "trip/d/b.csv"])).toEqual({ title: "trip", strip: 5 });
    expect(commonRoot(["a.csv", "trip/b.csv"])).toEqual({ title: "", strip: 0 });
  });

  it("tells an uploaded copy's internal path from a folder of the person's own", () => {
    const hex = "0123456789abcdef0123456789abcdef";
    expect(isUploadedCopy(`/home/u/.local/share/Labwright/uploads/${hex}/pendulum`)).toBe(true);
    expect(isUploadedCopy(`C:\\Users\\u\\AppData\\Labwright\\uploads\\${hex}\\植物`)).toBe(true);
    expect(isUploadedCopy("/home/u/data/uploads/pendulum")).toBe(false);
    expect(isUploadedCopy(`/home/u/uploads/${hex}/a/b`)).toBe(false);
  });

  it("lists a session whose last run failed as stopped, never as finished", () => {
    const en = translator("en");
    const zh = translator("zh");
    expect(runState(en, "failed")).toBe("stopped without a report");
    expect(runState(zh, "failed")).toBe("已停止，未生成报告");
    for (const t of [en, zh]) expect(runState(t, "failed")).not.toMatch(/Finished|已完成/);
    expect(runState(en, "done")).toBe("Finished");
    expect(runState(en, "cancelled")).toBe("cancelled");
  });

  it("routes round-trip", () => {
    for (const h of ["#/", "#/settings", "#/s/12/report", "#/s/3/versions"]) expect(href(parseRoute(h))).toBe(h);
    expect(parseRoute("#/s/4")).toEqual({ name: "session", id: 4, tab: "progress" });
    expect(parseRoute("#token=abc")).toEqual({ name: "start" });
  });

  it("has every interface string in both languages and follows the system language", () => {
    expect(Object.keys(dictionaries.zh).sort()).toEqual(Object.keys(dictionaries.en).sort());
    for (const v of Object.values(dictionaries.zh)) expect(v.trim()).not.toBe("");
    expect(systemLang(["zh-CN", "en"])).toBe("zh");
    expect(systemLang(["fr-FR", "en-GB"])).toBe("en");
    expect(systemLang(["fr"])).toBe("en");
    expect(translator("en")("files", { n: 3 })).toBe("3 files");
  });

  it("resolves the theme", () => {
    expect(resolveTheme("system", true)).toBe("dark");
    expect(resolveTheme("light", true)).toBe("light");
  });
});
