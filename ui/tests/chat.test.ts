import { describe, expect, it } from "vitest";
import { chatDictionaries } from "../src/chat/messages";
import { decidable, emptyChat, reduceChat, type ChatState, type ProposalOut } from "../src/chat/reducer";
import type { RunEnvelope } from "../src/state/events";

const ev = (seq: number, payload: Record<string, unknown>): RunEnvelope => ({ seq, type: String(payload.type), payload });

const proposal = (id: number, over: Partial<ProposalOut> = {}): ProposalOut => ({
  id,
  session_id: 1,
  base_version_id: 10,
  char_start: 0,
  char_end: 5,
  old_text: "Principle",
  new_text: "Theory",
  status: "pending",
  scope: "section",
  target: "n1 Principle",
  summary: "Rename",
  created_at: "2026-11-30T00:00:00Z",
  decided_at: null,
  result_version_id: null,
  bib_old: null,
  bib_new: null,
  ...over,
});

const TURN = [
  ev(1, { type: "route", target: "n1", label: "2 Principle", by: "section", used_tokens: false }),
  ev(2, { type: "proposal", proposal_id: 7, scope: "section", target: "n1 Principle", summary: "Rename" }),
  ev(3, { type: "reply", text: "Proposed: rename." }),
  ev(4, { type: "done", ok: true, pdf_path: null, tex_path: null, version_no: 1, problems: [] }),
];

function fold(state: ChatState, events: RunEnvelope[]): ChatState {
  return events.reduce((s, env) => reduceChat(s, { kind: "event", env }), state);
}

describe("chat reducer", () => {
  it("folds a turn: the user line, the route, the announced proposal, the reply, then idle", () => {
    let s = reduceChat(emptyChat(), { kind: "sent", text: "Rename section 2 to Theory.", runId: 3 });
    expect(s.busy).toBe(true);
    s = fold(s, TURN);
    expect(s.busy).toBe(false);
    expect(s.route).toEqual({ target: "n1", label: "2 Principle", by: "section", usedTokens: false });
    expect(s.announced).toEqual([7]);
    expect(s.lines.map((l) => [l.role, l.text])).toEqual([
      ["user", "Rename section 2 to Theory."],
      ["assistant", "Proposed: rename."],
    ]);
    s = reduceChat(s, { kind: "proposal", proposal: proposal(7) });
    expect(s.announced).toEqual([]);
    expect(s.proposals.map((p) => p.id)).toEqual([7]);
  });

  it("applies each seq once, so a replay after a reconnect changes nothing", () => {
    const s = fold(reduceChat(emptyChat(), { kind: "sent", text: "x", runId: 1 }), TURN);
    expect(fold(s, TURN)).toEqual(s);
  });

  it("replaces the local lines with the stored conversation, keeping proposals updated in place", () => {
    let s = reduceChat(emptyChat(), { kind: "proposal", proposal: proposal(7) });
    s = reduceChat(s, {
      kind: "loaded",
      messages: [
        { id: 1, role: "user", content: "a", version_id: 10, proposal_id: null, created_at: "" },
        { id: 2, role: "assistant", content: "b", version_id: 10, proposal_id: 7, created_at: "" },
      ],
      proposals: [proposal(7, { status: "accepted" }), proposal(8)],
    });
    expect(s.lines.map((l) => l.key)).toEqual(["m1", "m2"]);
    expect(s.proposals.map((p) => [p.id, p.status])).toEqual([
      [7, "accepted"],
      [8, "pending"],
    ]);
  });

  it("offers accept only on the latest version, except for parts of a split whole edit", () => {
    expect(decidable(proposal(1), 10)).toBe("open");
    expect(decidable(proposal(1), 11)).toBe("stale");
    expect(decidable(proposal(1, { scope: "whole" }), 11)).toBe("open");
    expect(decidable(proposal(1, { status: "rejected" }), 10)).toBe("decided");
  });

  it("a failure ends the turn with its sentence", () => {
    const s = reduceChat(reduceChat(emptyChat(), { kind: "sent", text: "x", runId: 1 }), { kind: "failed", message: "No." });
    expect(s.busy).toBe(false);
    expect(s.error).toBe("No.");
  });
});

describe("chat messages", () => {
  it("have the same keys in English and Chinese, none empty", () => {
    const en = Object.keys(chatDictionaries.en).sort();
    expect(Object.keys(chatDictionaries.zh).sort()).toEqual(en);
    for (const lang of ["en", "zh"] as const) {
      for (const text of Object.values(chatDictionaries[lang])) expect(text.trim()).not.toBe("");
    }
  });
});
