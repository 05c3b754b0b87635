// Is the engine (the sidecar) reachable? A request that fails without an
// answer (the network dropped, the sidecar is restarting) moves the window to
// "reconnecting": the screen stays, reads wait and are retried, and the engine
// is probed with /api/health. Past `goneAfterMs` of failed probes it is "gone":
// one sentence says what to do, and probing goes on (a laptop that slept comes
// back). Any answer at all, even an error status, means the link is up again.

export type Link = "online" | "reconnecting" | "gone";

export interface LinkState {
  link: Link;
  /** When the first unanswered request of this outage happened (ms). */
  since: number | null;
}

export type LinkEvent = { kind: "failed"; at: number } | { kind: "answered" } | { kind: "tick"; at: number };

export const GONE_AFTER_MS = 20_000;

export function reduceLink(state: LinkState, ev: LinkEvent, goneAfterMs = GONE_AFTER_MS): LinkState {
  switch (ev.kind) {
    case "answered":
      return state.link === "online" ? state : { link: "online", since: null };
    case "failed": {
      const since = state.since ?? ev.at;
      return { link: ev.at - since >= goneAfterMs ? "gone" : "reconnecting", since };
    }
    case "tick":
      if (state.since === null) return state;
      return ev.at - state.since >= goneAfterMs ? { ...state, link: "gone" } : state;
  }
}

export interface LivenessOptions {
  probe: () => Promise<boolean>;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
  goneAfterMs?: number;
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class Liveness {
  private state: LinkState = { link: "online", since: null };
  private listeners = new Set<(link: Link) => void>();
  private waiters: Array<() => void> = [];
  private probing = false;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly opts: LivenessOptions) {
    this.now = opts.now ?? (() => Date.now());
    this.sleep = opts.sleep ?? delay;
  }

  get link(): Link {
    return this.state.link;
  }

  subscribe(listener: (link: Link) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private apply(ev: LinkEvent): void {
    const before = this.state.link;
    this.state = reduceLink(this.state, ev, this.opts.goneAfterMs);
    if (this.state.link === before) return;
    for (const l of this.listeners) l(this.state.link);
    if (this.state.link === "online") {
      const waiting = this.waiters;
      this.waiters = [];
      for (const w of waiting) w();
    }
  }

  /** Something got an answer from the engine. */
  answered(): void {
    this.apply({ kind: "answered" });
  }

  /** A request got no answer: start probing until the engine answers. */
  failed(): void {
    this.apply({ kind: "failed", at: this.now() });
    if (!this.probing) void this.probeLoop();
  }

  /** Resolves once the engine answers again (immediately when it does now). */
  online(signal?: AbortSignal): Promise<void> {
    if (this.state.link === "online") return Promise.resolve();
    return new Promise((resolve, reject) => {
      const done = () => resolve();
      this.waiters.push(done);
      signal?.addEventListener("abort", () => {
        this.waiters = this.waiters.filter((w) => w !== done);
        reject(signal.reason);
      });
    });
  }

  private async probeLoop(): Promise<void> {
    this.probing = true;
    try {
      for (let attempt = 0; this.state.link !== "online"; attempt++) {
        await this.sleep(Math.min(500 * 2 ** attempt, 4000));
        let ok = false;
        try {
          ok = await this.opts.probe();
        } catch {
          ok = false;
        }
        if (ok) this.answered();
        else this.apply({ kind: "failed", at: this.now() });
      }
    } finally {
      this.probing = false;
    }
  }
}
