// Server-sent events over fetch: EventSource cannot send the bearer header, and
// a token must never go into a query string. A link that dies silently (the
// laptop slept, a proxy dropped it) is noticed by silence: the server pings
// every 15 s, so 45 s without a byte means reconnect. Resuming sends Last-Event-ID = the
// last seq applied, and the server replays strictly after it, so a reconnect
// neither loses nor repeats an event (the reducer also drops any seq it has seen).

export interface SseMessage {
  id: string | null;
  event: string;
  data: string;
}

/** Incremental parser of the text/event-stream format (WHATWG HTML §9.2.6). */
export class SseParser {
  private buffer = "";
  private data: string[] = [];
  private event = "";
  private id: string | null = null;

  push(chunk: string): SseMessage[] {
    this.buffer += chunk;
    const out: SseMessage[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      // A lone "\r" at the end may be the first half of "\r\n": wait for more.
      if (match[0] === "\r" && match.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const message = this.line(line);
      if (message) out.push(message);
    }
    return out;
  }

  private line(line: string): SseMessage | null {
    if (line === "") {
      if (this.data.length === 0) {
        this.event = "";
        return null;
      }
      const message = { id: this.id, event: this.event || "message", data: this.data.join("\n") };
      this.data = [];
      this.event = "";
      return message;
    }
    if (line.startsWith(":")) return null; // comment / keep-alive ping
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id" && !value.includes("\0")) this.id = value;
    return null;
  }
}

export interface FollowOptions {
  url: string;
  token: string;
  /** The last seq already applied; asked again on every (re)connect. */
  lastSeq: () => number;
  onMessage: (m: SseMessage) => void;
  /** Called when the server closed the stream normally (the run ended). */
  onEnd: () => void;
  /**
   * Whether the stream's last message has been seen (a run's `done` event).
   * A clean close before it is a lost link, not the end: WebKitGTK (the
   * desktop window) reports a connection dropped between two chunks as the
   * body's normal end, where Chromium reports an error, so the window stopped
   * following a run whose connection was cut. Such a close reconnects; after
   * QUIET_CLOSES closes in a row that brought nothing, the end is taken as
   * real (a stream that really has no last message does not loop forever).
   * Without this option every clean close is the end.
   */
  complete?: () => boolean;
  onRetry?: (attempt: number) => void;
  /** A (re)connection was answered: the stream is flowing again. */
  onOpen?: () => void;
  signal: AbortSignal;
  fetchImpl?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** No byte for this long (the server pings every 15 s) means a dead link: reconnect. */
  idleMs?: number;
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const QUIET_CLOSES = 3;

class EarlyClose extends Error {}

/** Follow a stream until it ends, reconnecting after network errors with backoff. */
export async function follow(opts: FollowOptions): Promise<void> {
  const doFetch = opts.fetchImpl ?? fetch;
  const sleep = opts.sleep ?? delay;
  let attempt = 0;
  let quietCloses = 0;
  const idleMs = opts.idleMs ?? 45_000;
  while (!opts.signal.aborted) {
    // One controller per connection: the idle watchdog aborts only this one.
    const attemptCtl = new AbortController();
    const stop = () => attemptCtl.abort();
    opts.signal.addEventListener("abort", stop);
    let idle: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      clearTimeout(idle);
      idle = setTimeout(() => attemptCtl.abort(), idleMs);
    };
    try {
      arm();
      const res = await doFetch(opts.url, {
        headers: {
          Authorization: `Bearer ${opts.token}`,
          Accept: "text/event-stream",
          "Last-Event-ID": String(opts.lastSeq()),
        },
        signal: attemptCtl.signal,
        cache: "no-store",
      });
      if (res.status >= 400 && res.status < 500) throw new FatalStreamError(res.status);
      if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
      attempt = 0;
      opts.onOpen?.();
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new SseParser();
      attemptCtl.signal.addEventListener("abort", () => void reader.cancel().catch(() => undefined));
      let received = 0;
      for (;;) {
        arm();
        const { value, done } = await reader.read();
        if (attemptCtl.signal.aborted) throw new Error("stream went quiet");
        if (done) break;
        for (const m of parser.push(value)) {
          received += 1;
          opts.onMessage(m);
        }
      }
      quietCloses = received === 0 ? quietCloses + 1 : 0;
      if (opts.complete && !opts.complete() && quietCloses < QUIET_CLOSES) {
        throw new EarlyClose("the stream closed before its last message");
      }
      opts.onEnd();
      return;
    } catch (err) {
      if (opts.signal.aborted || err instanceof FatalStreamError) throw err;
      attempt += 1;
      opts.onRetry?.(attempt);
      await sleep(Math.min(250 * 2 ** attempt, 5000));
    } finally {
      clearTimeout(idle);
      opts.signal.removeEventListener("abort", stop);
    }
  }
}

export class FatalStreamError extends Error {
  constructor(readonly status: number) {
    super(`stream refused with ${status}`);
  }
}
