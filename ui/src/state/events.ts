// The run view as a pure fold over the run's events. Events carry a per-run
// seq 1, 2, 3 … without gaps; the reducer applies each seq exactly once (a
// repeat is ignored) and records any gap, so "none lost, none repeated" is a
// property of the state that tests and the e2e run can check.
import type { components } from "../api/schema";
import { textField, type Said } from "../serverText";

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
  said: Said;
  detail?: Said;
  /** For a milestone: itself, named in the interface language by the view (serverText.milestoneName). */
  milestone?: Milestone;
}

/** A sentence for the user (a warning, an error, a problem), kept once however often it is said. */
export interface Notice {
  level: "warning" | "error";
  said: Said;
  action?: Said;
  /** Where the person can fix it: a warning about the model provider links to Settings. */
  link?: "settings";
  /** How many times the run said it. */
  count: number;
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
  notices: Notice[];
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
  notices: [],
});

function asEvent(env: RunEnvelope): RunEvent | null {
  const p = env.payload;
  if (!p || typeof p !== "object" || typeof p.type !== "string") return null;
  return p as unknown as RunEvent;
}

/** An event's sentence: its English `text` and the catalogue key it carries in `field`. */
export function saidOf(ev: object, text: string, field = "text"): Said {
  return { text, keyed: textField(ev, field) };
}

const sameSaid = (a: Said, b: Said) =>
  a.keyed && b.keyed ? JSON.stringify(a.keyed) === JSON.stringify(b.keyed) : a.text === b.text;

/** Adds a notice, or counts it when the same sentence was already said. */
export function addNotice(list: readonly Notice[], notice: Omit<Notice, "count">): Notice[] {
  const i = list.findIndex((n) => sameSaid(n.said, notice.said));
  if (i < 0) return [...list, { ...notice, count: 1 }];
  const next = list.slice();
  const old = next[i]!;
  next[i] = { ...old, level: old.level === "error" || notice.level === "error" ? "error" : "warning", action: old.action ?? notice.action, link: old.link ?? notice.link, count: old.count + 1 };
  return next;
}

/** The problems a `done` event lists, each with its key when the engine sent one. */
function problemsOf(ev: S["Done"]): Said[] {
  const keyed = (ev as { problem_texts?: unknown }).problem_texts;
  return (ev.problems ?? []).map((text, i) => ({
    text,
    keyed: Array.isArray(keyed) ? textField({ t: keyed[i] }, "t") : null,
  }));
}

export function reduceRun(state: RunView, env: RunEnvelope): RunView {
  if (env.seq <= state.lastSeq) return { ...state, repeats: state.repeats + 1 };
  const gaps =
    env.seq === state.lastSeq + 1 ? state.gaps : [...state.gaps, [state.lastSeq + 1, env.seq - 1] as [number, number]];
  const next: RunView = { ...state, lastSeq: env.seq, applied: [...state.applied, env.seq], gaps };
  const ev = asEvent(env);
  if (!ev) return next;
  const plain = (text: string): Said => ({ text });
  const line = (kind: LogKind, said: Said, detail?: Said, milestone?: Milestone): LogLine[] => [
    ...next.log,
    { seq: env.seq, kind, said, detail, milestone },
  ];
  switch (ev.type) {
    case "milestone":
      return {
        ...next,
        total: ev.total,
        milestones: [...next.milestones, ev],
        log: line("milestone", saidOf(ev, ev.label || ev.stage), undefined, ev),
      };
    case "step":
      return { ...next, log: line("step", saidOf(ev, ev.message)) };
    case "tool_call":
      return { ...next, log: line("tool", plain(ev.name), plain(ev.result_preview ?? "")) };
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
        log: line(
          "gate",
          plain(ev.gate),
          {
            text: [ev.accepted ? "accepted" : "refused", ...(ev.reasons ?? [])].join(": "),
            keyed: ev.reasons?.length ? null : { key: ev.accepted ? "gate.accepted" : "gate.refused" },
          },
        ),
      };
    case "usage":
      return { ...next, usage: [...next.usage, ev] };
    case "warning": {
      const said = saidOf(ev, ev.message);
      const link = (ev as { link?: unknown }).link === "settings" ? "settings" : undefined;
      return { ...next, notices: addNotice(next.notices, { level: "warning", said, link }), log: line("warning", said) };
    }
    case "error": {
      const said = saidOf(ev, ev.message);
      const action = ev.action ? saidOf(ev, ev.action, "action_text") : undefined;
      return {
        ...next,
        notices: addNotice(next.notices, { level: "error", said, action }),
        log: line("error", said, action),
      };
    }
    case "done": {
      let notices = next.notices;
      for (const said of problemsOf(ev)) notices = addNotice(notices, { level: ev.ok ? "warning" : "error", said });
      const message = (ev as { message?: unknown }).message;
      if (typeof message === "string" && message) notices = addNotice(notices, { level: "warning", said: saidOf(ev, message) });
      return { ...next, done: ev, notices, log: line("done", plain(ev.ok ? "done" : "problems")) };
    }
    default:
      return next;
  }
}

export function reduceAll(state: RunView, events: readonly RunEnvelope[]): RunView {
  return events.reduce(reduceRun, state);
}

/**
 * How a run stands. `status` is the run's own (RunOut.status), known once it ended:
 * a failed or cancelled run is never "done", whatever its last event says.
 */
export type Outcome = "waiting" | "running" | "done" | "problems" | "failed" | "cancelled" | "interrupted";

export function outcome(view: RunView, status: string | null): Outcome {
  if (status === "cancelled" || status === "interrupted" || status === "failed") return status;
  // The engine says how the run ended (Done.outcome) where it knows.
  const told = (view.done as { outcome?: string } | null)?.outcome;
  if (told === "finished") return "done";
  if (told === "problems" || told === "failed" || told === "cancelled" || told === "interrupted") return told;
  if (view.done) {
    if (view.done.ok) return "done";
    // A run that ended with a report but with problems; without one it failed.
    return status === "done" || view.done.tex_path || view.done.version_no ? "problems" : "failed";
  }
  if (status === "done") return "done";
  return view.milestones.length ? "running" : "waiting";
}

/** Percent done: 100 only once a report was made; else the milestones started before the current one. */
export function progress(view: RunView, status: string | null = null): number {
  const out = outcome(view, status);
  if (out === "done" || out === "problems") return 100;
  if (!view.total || view.milestones.length === 0) return 0;
  // Running, or stopped (failed, cancelled): the share of stages finished before the last one started.
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
