// The chat panel's state as a pure fold: the conversation and proposals loaded
// from the store, then the events of the chat turn being followed (the same
// envelopes a run streams). Each seq is applied once, so a reconnect that
// replays events changes nothing.
import type { components } from "../api/schema";
import type { RunEnvelope } from "../state/events";

type S = components["schemas"];
export type ProposalOut = S["ProposalOut"];
export type MessageOut = S["MessageOut"];

export interface ChatLine {
  key: string;
  role: "user" | "assistant";
  text: string;
  proposalId: number | null;
}

export interface RouteInfo {
  target: string;
  label: string;
  by: string;
  usedTokens: boolean;
}

export interface ChatState {
  lines: ChatLine[];
  proposals: ProposalOut[];
  /** The chat turn being followed, and the last seq applied from it. */
  runId: number | null;
  lastSeq: number;
  busy: boolean;
  route: RouteInfo | null;
  /** Proposal ids announced by the turn and not fetched yet. */
  announced: number[];
  error: string | null;
}

export type ChatAction =
  | { kind: "loaded"; messages: MessageOut[]; proposals: ProposalOut[] }
  | { kind: "sent"; text: string; runId: number }
  | { kind: "event"; env: RunEnvelope }
  | { kind: "proposal"; proposal: ProposalOut }
  | { kind: "failed"; message: string };

export const emptyChat = (): ChatState => ({
  lines: [],
  proposals: [],
  runId: null,
  lastSeq: 0,
  busy: false,
  route: null,
  announced: [],
  error: null,
});

function upsert(list: ProposalOut[], p: ProposalOut): ProposalOut[] {
  const i = list.findIndex((x) => x.id === p.id);
  if (i < 0) return [...list, p].sort((a, b) => a.id - b.id);
  const next = list.slice();
  next[i] = p;
  return next;
}

export function reduceChat(state: ChatState, action: ChatAction): ChatState {
  switch (action.kind) {
    case "loaded": {
      const lines = action.messages
        .filter((m) => m.role === "user" || m.role === "assistant")
        .map((m) => ({
          key: `m${m.id}`,
          role: m.role as "user" | "assistant",
          text: m.content,
          proposalId: m.proposal_id ?? null,
        }));
      // While a turn is running its user line is not in the store's answer yet.
      const keep = state.busy ? state.lines.filter((l) => l.key.startsWith("local")) : [];
      let proposals = state.proposals;
      for (const p of action.proposals) proposals = upsert(proposals, p);
      return { ...state, lines: [...lines, ...keep], proposals };
    }
    case "sent":
      return {
        ...state,
        lines: [...state.lines, { key: `local${action.runId}`, role: "user", text: action.text, proposalId: null }],
        runId: action.runId,
        lastSeq: 0,
        busy: true,
        route: null,
        error: null,
      };
    case "event": {
      const env = action.env;
      if (env.seq <= state.lastSeq) return state;
      const next = { ...state, lastSeq: env.seq };
      const p = env.payload as Record<string, unknown>;
      switch (p.type) {
        case "route":
          return {
            ...next,
            route: {
              target: String(p.target ?? ""),
              label: String(p.label ?? ""),
              by: String(p.by ?? ""),
              usedTokens: Boolean(p.used_tokens),
            },
          };
        case "proposal":
          return { ...next, announced: [...next.announced, Number(p.proposal_id)] };
        case "reply":
          return {
            ...next,
            lines: [
              ...next.lines,
              { key: `local-reply${state.runId}`, role: "assistant", text: String(p.text ?? ""), proposalId: next.announced[0] ?? null },
            ],
          };
        case "done":
          return { ...next, busy: false };
        default:
          return next;
      }
    }
    case "proposal":
      return {
        ...state,
        proposals: upsert(state.proposals, action.proposal),
        announced: state.announced.filter((id) => id !== action.proposal.id),
      };
    case "failed":
      return { ...state, busy: false, error: action.message };
  }
}

/** What a card may offer: accept/reject only while pending on the latest version. */
export function decidable(p: ProposalOut, latestVersionId: number | null): "open" | "stale" | "decided" {
  if (p.status !== "pending") return "decided";
  // Parts of a split whole edit may still apply after a sibling was accepted (the server decides).
  if (p.base_version_id === latestVersionId || p.scope === "whole") return "open";
  return "stale";
}
