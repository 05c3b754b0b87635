// The run view as a pure fold over the run's events. Events carry a per-run
// seq 1, 2, 3 … without gaps; the reducer applies each seq exactly once (a
// repeat is ignored) and records any gap, so "none lost, none repeated" is a
// property of the state that tests and the e2e run can check.
import type { components } from "../api/schema";

type S = components["schemas"];
export type RunEvent = S["RunEventOut"]["payload"];
export type Milestone = S["Milestone"];
export type UsageEvent = S["UsageRecorded"];

export interface RunEnvelope {
  seq: number;
  type: string;
  payload: RunEvent | Record<string, unknown>;
  created_at?: string;
}

export type LogKind = "milestone" | "step" | "tool" | "gate" | "warning" | "error" | "done";

export interface LogLine {
  seq: number;
  kind: LogKind;
  text: string;
  detail?: string;
}

export interface RunView {
  lastSeq: number;
  applied: number[];
  gaps: Array<[number, number]>;
  repeats: number;
  total: number | null;
  milestones: Milestone[];
  log: LogLine[];
  figures: Array<{ name: string; file: string; source: string }>;
  draft: string;
  usage: UsageEvent[];
  done: S["Done"] | null;
  errors: Array<{ message: string; action: string }>;
}

export const emptyRun = (): RunView => ({
  lastSeq: 0,
  applied: [],
  gaps: [],
  repeats: 0,
  total: null,
  milestones: [],
  log: [],
  figures: [],
  draft: "",
  usage: [],
  done: null,
  errors: [],
});

function asEvent(env: RunEnvelope): RunEvent | null {
  const p = env.payload;
  if (!p || typeof p !== "object" || typeof p.type !== "string") return null;
  return p as unknown as RunEvent;
}

export function reduceRun(state: RunView, env: RunEnvelope): RunView {
  if (env.seq <= state.lastSeq) return { ...state, repeats: state.repeats + 1 };
  const gaps =
    env.seq === state.lastSeq + 1 ? state.gaps : [...state.gaps, [state.lastSeq + 1, env.seq - 1] as [number, number]];
  const next: RunView = { ...state, lastSeq: env.seq, applied: [...state.applied, env.seq], gaps };
  const ev = asEvent(env);
  if (!ev) return next;
  const line = (kind: LogKind, text: string, detail?: string): LogLine[] => [
    ...next.log,
    { seq: env.seq, kind, text, detail },
  ];
  switch (ev.type) {
    case "milestone":
      return {
        ...next,
        total: ev.total,
        milestones: [...next.milestones, ev],
        log: line("milestone", ev.label || ev.stage),
      };
    case "step":
      return { ...next, log: line("step", ev.message, ev.stage) };
    case "tool_call":
      return { ...next, log: line("tool", ev.name, ev.result_preview ?? "") };
    case "figure":
      return {
        ...next,
        figures: [...next.figures, { name: ev.name, file: ev.path.split(/[\\/]/).pop() ?? ev.name, source: ev.source ?? "" }],
      };
    case "draft_chunk":
      return { ...next, draft: next.draft + ev.text };
    case "gate":
      return {
        ...next,
        log: line("gate", ev.gate, [ev.accepted ? "accepted" : "refused", ...(ev.reasons ?? [])].join(": ")),
      };
    case "usage":
      return { ...next, usage: [...next.usage, ev] };
    case "warning":
      return { ...next, log: line("warning", ev.message) };
    case "error":
      return {
        ...next,
        errors: [...next.errors, { message: ev.message, action: ev.action ?? "" }],
        log: line("error", ev.message, ev.action ?? ""),
      };
    case "done":
      return { ...next, done: ev, log: line("done", ev.ok ? "done" : "problems", (ev.problems ?? []).join(" ")) };
    default:
      return next;
  }
}

export function reduceAll(state: RunView, events: readonly RunEnvelope[]): RunView {
  return events.reduce(reduceRun, state);
}

/** Percent done: 100 once the run ended; else the milestones started before the current one. */
export function progress(view: RunView): number {
  if (view.done) return 100;
  if (!view.total || view.milestones.length === 0) return 0;
  const current = view.milestones[view.milestones.length - 1]!;
  return Math.max(0, Math.min(99, Math.round((100 * (current.index - 1)) / view.total)));
}

/** The stage running now, or null before the first milestone. */
export function currentStage(view: RunView): Milestone | null {
  return view.milestones[view.milestones.length - 1] ?? null;
}

/** Milestone indexes are 1..n without skip or repeat. */
export function milestonesConsecutive(view: RunView): boolean {
  return view.milestones.every((m, i) => m.index === i + 1 && m.total === view.total);
}

export interface CostRow {
  step: string;
  calls: number;
  prompt: number;
  cached: number;
  completion: number;
  /** null: at least one call had no known price, so the sum is unknown */
  cost: number | null;
}

/** Tokens and cost per step; a step with an unpriced call has an unknown cost. */
export function costByStep(usage: readonly UsageEvent[]): CostRow[] {
  const rows = new Map<string, CostRow>();
  for (const u of usage) {
    const row = rows.get(u.step) ?? { step: u.step, calls: 0, prompt: 0, cached: 0, completion: 0, cost: 0 };
    row.calls += 1;
    row.prompt += u.prompt_tokens;
    row.cached += u.cached_tokens;
    row.completion += u.completion_tokens;
    row.cost = row.cost === null || u.cost === null || u.cost === undefined ? null : row.cost + u.cost;
    rows.set(u.step, row);
  }
  return [...rows.values()];
}
