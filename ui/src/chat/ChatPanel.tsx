// The chat panel beside the report: say what to change, get proposals as
// cards with a line diff, accept or reject each. All state that matters is in
// the store; this view folds the chat turn's events (reducer.ts) and reloads
// the conversation and proposals from the API when a turn or a decision ends.
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import { ApiError, type Api, type RunOut, type VersionOut, type VersionSummary } from "../api/client";
import { follow } from "../api/sse";
import { changeCount, diffRows, foldContext } from "../state/diff";
import type { RunEnvelope } from "../state/events";
import { useChatT, type ChatKey, type ChatT } from "./messages";
import { decidable, emptyChat, reduceChat, type MessageOut, type ProposalOut } from "./reducer";
import { PROPOSALS_CHANGED } from "../state/citations";
import "./chat.css";

/** Follow one run's events until it ends (resuming after the last seq on a reconnect). */
async function followRun(api: Api, runId: number, onEvent: (env: RunEnvelope) => void, signal?: AbortSignal) {
  let last = 0;
  await follow({
    url: api.url(`/runs/${runId}/events`),
    token: api.conn.token,
    lastSeq: () => last,
    onMessage: (m) => {
      if (!m.data) return;
      const env = JSON.parse(m.data) as RunEnvelope;
      if (env.seq > last) last = env.seq;
      onEvent(env);
    },
    onEnd: () => undefined,
    onRetry: () => undefined,
    signal: signal ?? new AbortController().signal,
  });
}

function message(err: unknown): string {
  return err instanceof ApiError && err.message ? err.message : err instanceof Error ? err.message : String(err);
}

function ProposalCard({
  api,
  proposal,
  latestId,
  canEdit,
  t,
  onDecided,
}: {
  api: Api;
  proposal: ProposalOut;
  latestId: number | null;
  canEdit: boolean;
  t: ChatT;
  onDecided: (p: ProposalOut, made: VersionOut | null) => Promise<void>;
}) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const diff = useMemo(() => diffRows(proposal.old_text, proposal.new_text), [proposal.old_text, proposal.new_text]);
  const state = decidable(proposal, latestId);

  const decide = async (action: "accept" | "reject") => {
    setWorking(true);
    setError(null);
    try {
      const made =
        action === "accept" ? await api.send<VersionOut>("POST", `/proposals/${proposal.id}/accept`) : null;
      if (action === "reject") await api.send("POST", `/proposals/${proposal.id}/reject`);
      const fresh = await api.get<ProposalOut>(`/proposals/${proposal.id}`);
      await onDecided(fresh, made);
    } catch (err) {
      setError(message(err));
    } finally {
      setWorking(false);
      setConfirming(false);
    }
  };

  const accept = () => {
    if (proposal.scope === "whole" && !confirming) setConfirming(true);
    else void decide("accept");
  };

  return (
    <article
      className={`proposal proposal-${proposal.status}`}
      data-testid="proposal"
      data-proposal={proposal.id}
      data-status={proposal.status}
      data-scope={proposal.scope}
    >
      <header className="row">
        <span className="badge" data-testid="proposal-scope">
          {t(`scope_${proposal.scope}` as ChatKey)}
        </span>
        <span className="grow muted">{proposal.target}</span>
        <span className="muted">
          {changeCount(t, diff)}
        </span>
      </header>
      <p data-testid="proposal-summary">{proposal.summary}</p>
      <pre className="diff" data-testid="proposal-diff">
        {foldContext(diff.rows, 2).map((r, i) =>
          r.kind === "fold" ? (
            <div key={i} className="fold">
              ⋯ {r.count}
            </div>
          ) : (
            <div key={i} className={`d-${r.kind}`}>
              {r.kind === "added" ? "+ " : r.kind === "removed" ? "− " : "  "}
              {r.text}
            </div>
          ),
        )}
      </pre>
      {state === "open" && canEdit && !confirming && (
        <div className="row">
          <button type="button" className="primary" disabled={working} onClick={accept} data-testid="accept">
            {t("accept")}
          </button>
          <button type="button" disabled={working} onClick={() => void decide("reject")} data-testid="reject">
            {t("reject")}
          </button>
        </div>
      )}
      {confirming && (
        <div className="row" role="alertdialog" data-testid="confirm-whole">
          <span className="grow">{t("confirmWhole")}</span>
          <button type="button" className="primary" onClick={() => void decide("accept")} data-testid="confirm">
            {t("confirm")}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            {t("keep")}
          </button>
        </div>
      )}
      {state === "stale" && <p className="muted">{t("stale")}</p>}
      {proposal.status === "rejected" && <p className="muted">{t("rejected")}</p>}
      {proposal.status === "accepted" && <p className="muted">{t("acceptedShort")}</p>}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </article>
  );
}

export function ChatPanel({
  api,
  sessionId,
  versions,
  shownVersionNo,
  runActive,
  onVersionsChanged,
}: {
  api: Api;
  sessionId: number;
  versions: VersionSummary[];
  /** The version the report shows; editing is allowed only on the latest. */
  shownVersionNo: number | null;
  /** A build or another turn is running: sending would be refused. */
  runActive: boolean;
  onVersionsChanged: () => Promise<void>;
}) {
  const t = useChatT();
  const [state, dispatch] = useReducer(reduceChat, undefined, emptyChat);
  const [text, setText] = useState("");
  const [note, setNote] = useState<string | null>(null);
  // Proposals decided in this view stay visible with their outcome.
  const [recent, setRecent] = useState<number[]>([]);
  // While an accepted version's PDF is built, the session has an active run:
  // the server would refuse another accept or message, so the panel waits.
  const [rebuilding, setRebuilding] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const latest = versions[versions.length - 1] ?? null;
  const viewingLatest = latest !== null && (shownVersionNo === null || shownVersionNo === latest.version_no);

  const load = useCallback(async () => {
    const [messages, proposals] = await Promise.all([
      api.get<MessageOut[]>(`/sessions/${sessionId}/messages`),
      api.get<ProposalOut[]>(`/sessions/${sessionId}/proposals`),
    ]);
    dispatch({ kind: "loaded", messages, proposals });
  }, [api, sessionId]);

  useEffect(() => {
    void load().catch((err) => dispatch({ kind: "failed", message: message(err) }));
    return () => abort.current?.abort();
  }, [load]);

  // A proposal made elsewhere in the window (a reference's correction) is decided here.
  useEffect(() => {
    const reload = () => void load().catch((err) => dispatch({ kind: "failed", message: message(err) }));
    window.addEventListener(PROPOSALS_CHANGED, reload);
    return () => window.removeEventListener(PROPOSALS_CHANGED, reload);
  }, [load]);

  // Fetch each announced proposal as soon as its event arrives.
  useEffect(() => {
    for (const id of state.announced) {
      void api.get<ProposalOut>(`/proposals/${id}`).then((proposal) => dispatch({ kind: "proposal", proposal }));
    }
  }, [api, state.announced]);

  const send = async () => {
    const request = text.trim();
    if (!request || state.busy) return;
    setNote(null);
    try {
      const run = await api.send<RunOut>("POST", `/sessions/${sessionId}/chat`, { message: request });
      setText("");
      dispatch({ kind: "sent", text: request, runId: run.id });
      abort.current = new AbortController();
      await followRun(api, run.id, (env) => dispatch({ kind: "event", env }), abort.current.signal);
      await load();
    } catch (err) {
      dispatch({ kind: "failed", message: err instanceof ApiError && err.status === 409 ? t("busyRun") : message(err) });
    }
  };

  const decided = async (p: ProposalOut, made: VersionOut | null) => {
    dispatch({ kind: "proposal", proposal: p });
    setRecent((cur) => [...cur, p.id]);
    if (!made) {
      setNote(t("rejected"));
      return;
    }
    setNote(t("accepted", { n: made.version_no }));
    await onVersionsChanged();
    if (made.run_id !== null && made.run_id !== undefined) {
      setNote(t("rebuilding"));
      setRebuilding(true);
      let ok = false;
      try {
        await followRun(api, made.run_id, (env) => {
          if (env.type === "done") ok = Boolean((env.payload as { ok?: boolean }).ok);
        });
      } finally {
        setRebuilding(false);
      }
      setNote(t(ok ? "rebuilt" : "rebuildFailed", { n: made.version_no }));
      await onVersionsChanged();
    }
  };

  const cards = state.proposals.filter((p) => p.status === "pending" || recent.includes(p.id));
  const canEdit = viewingLatest && !state.busy && !rebuilding;

  return (
    <section className="chat" aria-label={t("chatTitle")} data-testid="chat">
      <h3>{t("chatTitle")}</h3>
      {!latest && <p className="muted">{t("noReport")}</p>}
      {latest && !viewingLatest && (
        <p role="status" className="warn" data-testid="chat-not-latest">
          {t("onlyLatest", { shown: shownVersionNo ?? "", latest: latest.version_no })}{" "}
          {t("onlyLatestAction", { latest: latest.version_no })}
        </p>
      )}
      <ol className="chat-lines" data-testid="chat-lines">
        {state.lines.length === 0 && <li className="muted">{t("empty")}</li>}
        {state.lines.map((l) => (
          <li key={l.key} className={`chat-${l.role}`} data-role={l.role}>
            <strong>{l.role === "user" ? t("you") : t("assistant")}</strong> {l.text}
          </li>
        ))}
      </ol>
      {state.route && (
        <p className="muted" data-testid="chat-route">
          {state.route.by === "deterministic"
            ? t("codeDecision")
            : `${state.route.label || state.route.target} · ${t(state.route.usedTokens ? "modelDecision" : "freeDecision")}`}
        </p>
      )}
      {state.busy && (
        <p role="status" className="muted">
          {t("sending")}
        </p>
      )}
      {note && (
        <p role="status" data-testid="chat-note">
          {note}
        </p>
      )}
      {state.error && (
        <p role="alert" className="error">
          {state.error}
        </p>
      )}
      <div className="proposals">
        {cards.map((p) => (
          <ProposalCard
            key={p.id}
            api={api}
            proposal={p}
            latestId={latest?.id ?? null}
            canEdit={canEdit}
            t={t}
            onDecided={decided}
          />
        ))}
      </div>
      <form
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <textarea
          className="grow"
          rows={2}
          value={text}
          placeholder={t("placeholder")}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey) {
              e.preventDefault();
              void send();
            }
          }}
          disabled={!latest || !viewingLatest}
          data-testid="chat-input"
          aria-label={t("chatTitle")}
        />
        <button
          type="submit"
          className="primary"
          disabled={!canEdit || runActive || !text.trim()}
          data-testid="chat-send"
        >
          {t("send")}
        </button>
      </form>
    </section>
  );
}
