import { describe, expect, it } from "vitest";
import {
  costByStep,
  currentStage,
  emptyRun,
  milestonesConsecutive,
  progress,
  reduceAll,
  reduceRun,
  type RunEnvelope,
} from "../src/state/events";

const ev = (seq: number, payload: Record<string, unknown>): RunEnvelope => ({
  seq,
  type: String(payload.type),
  payload,
});

const RUN: RunEnvelope[] = [
  ev(1, { type: "milestone", index: 1, total: 3, stage: "scan", label: "Reading the folder" }),
  ev(2, { type: "step", stage: "scan", message: "3 files" }),
  ev(3, { type: "milestone", index: 2, total: 3, stage: "analyse", label: "Fitting" }),
  ev(4, { type: "figure", name: "fig01", path: "/x/figures/fig01.png", source: "periods.csv" }),
  ev(5, { type: "draft_chunk", text: "Hello " }),
  ev(6, { type: "draft_chunk", text: "world" }),
  ev(7, { type: "usage", step: "draft", model: "m", prompt_tokens: 100, cached_tokens: 40, completion_tokens: 10, cost: 0.5 }),
  ev(8, { type: "usage", step: "draft", model: "m", prompt_tokens: 50, cached_tokens: 0, completion_tokens: 5, cost: 0.25 }),
  ev(9, { type: "usage", step: "review", model: "x", prompt_tokens: 10, cached_tokens: 0, completion_tokens: 1, cost: null }),
  ev(10, { type: "milestone", index: 3, total: 3, stage: "compile", label: "Compiling" }),
  ev(11, { type: "error", message: "The compile failed.", action: "Open the log." }),
  ev(12, { type: "done", ok: true, pdf_path: "/x/report.pdf", tex_path: "/x/main.tex", version_no: 1, problems: [] }),
];

describe("event reducer", () => {
  it("folds a whole run", () => {
    const v = reduceAll(emptyRun(), RUN);
    expect(v.lastSeq).toBe(12);
    expect(v.total).toBe(3);
    expect(v.milestones.map((m) => m.index)).toEqual([1, 2, 3]);
    expect(milestonesConsecutive(v)).toBe(true);
    expect(v.figures).toEqual([{ name: "fig01", file: "fig01.png", source: "periods.csv" }]);
    expect(v.draft).toBe("Hello world");
    expect(v.notices).toEqual([
      {
        level: "error",
        said: { text: "The compile failed.", keyed: null },
        action: { text: "Open the log.", keyed: null },
        count: 1,
      },
    ]);
    expect(v.done?.version_no).toBe(1);
    expect(progress(v)).toBe(100);
    expect(v.gaps).toEqual([]);
    expect(v.repeats).toBe(0);
  });

  it("progress follows milestones and never reaches 100 before the end", () => {
    const seen: number[] = [];
    let v = emptyRun();
    for (const e of RUN.slice(0, 11)) {
      v = reduceRun(v, e);
      seen.push(progress(v));
    }
    expect(seen[0]).toBe(0);
    expect(Math.max(...seen)).toBeLessThan(100);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen); // monotone
    expect(currentStage(v)?.stage).toBe("compile");
  });

  it("ignores unknown event types but still counts their seq", () => {
    const v = reduceAll(emptyRun(), [ev(1, { type: "something_new", x: 1 }), ev(2, { type: "step", stage: "s", message: "m" })]);
    expect(v.lastSeq).toBe(2);
    expect(v.log).toHaveLength(1);
  });

  it("detects skipped milestone indexes", () => {
    const v = reduceAll(emptyRun(), [
      ev(1, { type: "milestone", index: 1, total: 3, stage: "a", label: "" }),
      ev(2, { type: "milestone", index: 3, total: 3, stage: "c", label: "" }),
    ]);
    expect(milestonesConsecutive(v)).toBe(false);
  });
});

describe("resume without loss or repeats", () => {
  it("a reconnect that replays from the last seq applies each event once", () => {
    let v = reduceAll(emptyRun(), RUN.slice(0, 5));
    // The connection drops; the server replays after Last-Event-ID = v.lastSeq,
    // and a racing duplicate of the last event arrives too.
    v = reduceAll(v, [RUN[4]!, ...RUN.slice(v.lastSeq)]);
    expect(v.applied).toEqual(RUN.map((e) => e.seq));
    expect(v.repeats).toBe(1);
    expect(v.gaps).toEqual([]);
    expect(v.draft).toBe("Hello world"); // the repeated chunk was not appended twice
    expect(v).toEqual({ ...reduceAll(emptyRun(), RUN), repeats: 1 });
  });

  it("records a gap when events are lost", () => {
    const v = reduceAll(emptyRun(), [RUN[0]!, RUN[1]!, RUN[4]!]);
    expect(v.gaps).toEqual([[3, 4]]);
  });

  it("a reload that folds from the start gives the same view", () => {
    const live = reduceAll(emptyRun(), RUN);
    const reloaded = reduceAll(emptyRun(), [...RUN]);
    expect(reloaded).toEqual(live);
  });
});

describe("cost", () => {
  it("sums per step, keeps the cached share, and an unpriced call makes the step unknown", () => {
    const rows = costByStep(reduceAll(emptyRun(), RUN).usage);
    expect(rows).toEqual([
      { step: "draft", calls: 2, prompt: 150, cached: 40, completion: 15, cost: 0.75 },
      { step: "review", calls: 1, prompt: 10, cached: 0, completion: 1, cost: null },
    ]);
  });
});
