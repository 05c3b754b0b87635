// Follows one run's events into a RunView. The view's lastSeq is what a
// reconnect resumes after, and it is kept in sessionStorage so a page reload
// replays only from the server's log (the fold restarts from the first event:
// the replay is cheap and the reducer drops any seq seen twice).
import { useEffect, useReducer, useRef, useState } from "react";
import type { Api, RunEventOut } from "../api/client";
import { follow } from "../api/sse";
import { emptyRun, reduceRun, type RunEnvelope, type RunView } from "./events";

type Action = { kind: "event"; env: RunEnvelope } | { kind: "reset" };

function reducer(state: RunView, action: Action): RunView {
  return action.kind === "reset" ? emptyRun() : reduceRun(state, action.env);
}

export function useRun(api: Api, runId: number | null) {
  const [view, dispatch] = useReducer(reducer, undefined, emptyRun);
  const [ended, setEnded] = useState(false);
  const [retrying, setRetrying] = useState(false);
  const last = useRef(0);
  const sawDone = useRef(false);

  useEffect(() => {
    dispatch({ kind: "reset" });
    last.current = 0;
    sawDone.current = false;
    setEnded(false);
    const probe = window as unknown as { __labwrightEvents?: number[] };
    if (probe.__labwrightEvents) probe.__labwrightEvents = []; // the e2e recorder: one run at a time
    if (runId === null) return;
    const ctl = new AbortController();
    void follow({
      url: api.url(`/runs/${runId}/events`),
      token: api.conn.token,
      lastSeq: () => last.current,
      onMessage: (m) => {
        if (!m.data) return;
        const env = JSON.parse(m.data) as RunEventOut;
        setRetrying(false);
        // Applied here, in arrival order: `last` is what the next reconnect asks after.
        if (env.seq > last.current) last.current = env.seq;
        if (env.type === "done") sawDone.current = true;
        dispatch({ kind: "event", env });
        probe.__labwrightEvents?.push(env.seq);
      },
      // A run's stream ends after its `done` event; a close before it is a cut link.
      complete: () => sawDone.current,
      onEnd: () => setEnded(true),
      onRetry: () => {
        setRetrying(true);
        api.liveness.failed();
      },
      onOpen: () => {
        setRetrying(false);
        api.liveness.answered();
      },
      signal: ctl.signal,
    }).catch(() => undefined);
    return () => ctl.abort();
  }, [api, runId]);

  return { view, ended, retrying };
}
