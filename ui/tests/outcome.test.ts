import { describe, expect, it } from "vitest";
import { emptyRun, outcome, progress, reduceAll, type RunEnvelope } from "../src/state/events";
import { milestoneName, say, stageName } from "../src/serverText";

const ev = (seq: number, payload: Record<string, unknown>): RunEnvelope => ({
  seq,
  type: String(payload.type),
  payload: payload as RunEnvelope["payload"],
});
const m = (seq: number, index: number, stage: string, label = "") =>
  ev(seq, { type: "milestone", index, total: 5, stage, label });

describe("run outcome", () => {
  it("a cancelled run is never finished: no full bar, its own word, the sentence once", () => {
    const said = "The run was cancelled; start it again when you are ready.";
    const v = reduceAll(emptyRun(), [
      m(1, 1, "scan"),
      m(2, 2, "analyse"),
      ev(3, { type: "error", message: said, action: "" }),
      ev(4, { type: "done", ok: false, problems: [said], pdf_path: null, tex_path: null, version_no: null }),
    ]);
    expect(outcome(v, "cancelled")).toBe("cancelled");
    expect(progress(v, "cancelled")).toBe(20);
    expect(v.notices).toHaveLength(1);
    expect(v.notices[0]).toMatchObject({ level: "error", count: 2 });
  });

  it("a failed run without a report is failed, not finished", () => {
    const v = reduceAll(emptyRun(), [
      m(1, 1, "scan"),
      ev(2, { type: "done", ok: false, problems: ["Add CSV files."], pdf_path: null, tex_path: null, version_no: null }),
    ]);
    expect(outcome(v, null)).toBe("failed");
    expect(outcome(v, "failed")).toBe("failed");
    expect(progress(v, "failed")).toBeLessThan(100);
  });

  it("a report with problems is finished with problems, a clean one finished", () => {
    const withProblems = reduceAll(emptyRun(), [
      m(1, 1, "scan"),
      ev(2, { type: "done", ok: false, problems: ["A figure is missing."], pdf_path: "/r.pdf", tex_path: "/r.tex", version_no: 1 }),
    ]);
    expect(outcome(withProblems, "done")).toBe("problems");
    expect(progress(withProblems, "done")).toBe(100);
    const clean = reduceAll(emptyRun(), [m(1, 1, "scan"), ev(2, { type: "done", ok: true, problems: [], pdf_path: null, tex_path: "/r.tex", version_no: 1 })]);
    expect(outcome(clean, "done")).toBe("done");
  });

  it("the same warning said three times is one notice", () => {
    const w = { type: "warning", message: "No data file was readable; add CSV files." };
    const v = reduceAll(emptyRun(), [ev(1, w), ev(2, w), ev(3, w), ev(4, { type: "warning", message: "Another." })]);
    expect(v.notices.map((n) => [n.said.text, n.count])).toEqual([
      [w.message, 3],
      ["Another.", 1],
    ]);
    expect(v.log).toHaveLength(4); // the log keeps every line, the notices each sentence once
  });

  it("a warning that links to Settings keeps its link, once however often it is said", () => {
    const w = { type: "warning", message: "The model provider cannot be reached.", link: "settings" };
    const v = reduceAll(emptyRun(), [ev(1, w), ev(2, { ...w, link: "" }), ev(3, { type: "warning", message: "Other." })]);
    expect(v.notices.map((n) => [n.count, n.link])).toEqual([
      [2, "settings"],
      [1, undefined],
    ]);
  });

  it("keyed messages are compared by key and parameters, and translated, nested ones too", () => {
    const a = { type: "warning", message: "x (skipped)", text: { key: "stage.skipped", params: { stage: "x" } } };
    const b = { ...a, text: { key: "stage.skipped", params: { stage: { key: "stage.compile", params: {} } } } };
    const v = reduceAll(emptyRun(), [ev(1, a), ev(2, a), ev(3, b)]);
    expect(v.notices.map((n) => n.count)).toEqual([2, 1]);
    expect(say("zh", v.notices[0]!.said)).toBe("x（已跳过）");
    expect(say("zh", v.notices[1]!.said)).toBe("编译 PDF（已跳过）");
    expect(say("en", { text: "The engine's own text.", keyed: { key: "no.such.key" } })).toBe("The engine's own text.");
    expect(say("zh", { text: "As is.", keyed: { key: "plain", params: { text: "As is." } } })).toBe("As is.");
  });

  it("a done event's outcome decides, and its message is said once", () => {
    const v = reduceAll(emptyRun(), [
      m(1, 1, "scan"),
      ev(2, { type: "done", ok: false, outcome: "cancelled", problems: [], message: "The run was cancelled." }),
    ]);
    expect(outcome(v, null)).toBe("cancelled");
    expect(progress(v, null)).toBe(0);
    expect(v.notices.map((n) => n.said.text)).toEqual(["The run was cancelled."]);
  });
});

describe("stage names", () => {
  it("are named by stage id in either language, with the round and a skip", () => {
    expect(stageName("zh", "compile", "Compiling the PDF")).toBe("编译 PDF");
    expect(stageName("en", "reflect", "Revising (round 2)")).toBe("Revising (round 2)");
    expect(stageName("zh", "reflect", "Revising (round 2)")).toBe("修订（第 2 轮）");
    expect(stageName("zh", "gaps", "Checking for gaps (skipped)")).toBe("检查遗漏（已跳过）");
    expect(stageName("zh", "brand-new", "A new stage")).toBe("A new stage");
    const keyed = { stage: "compile", label: "Compiling the PDF (skipped)", skipped: true, text: { key: "stage.compile", params: {} } };
    expect(milestoneName("zh", keyed)).toBe("编译 PDF（已跳过）");
  });
});
