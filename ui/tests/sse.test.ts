import { describe, expect, it } from "vitest";
import { follow, SseParser, type SseMessage } from "../src/api/sse";

describe("SSE parser", () => {
  it("parses events split at any byte, with CRLF, comments and multi-line data", () => {
    const text = ": ping\r\nid: 1\r\nevent: step\r\ndata: {\"a\":1}\r\n\r\nid: 2\ndata: line1\ndata: line2\n\n:keepalive\n\n";
    for (let cut = 0; cut <= text.length; cut++) {
      const p = new SseParser();
      const got = [...p.push(text.slice(0, cut)), ...p.push(text.slice(cut))];
      expect(got).toEqual([
        { id: "1", event: "step", data: '{"a":1}' },
        { id: "2", event: "message", data: "line1\nline2" },
      ]);
    }
  });
});

function stream(chunks: string[], failAfter = false): Response {
  let i = 0;
  // Pull-based, so the error comes only after every chunk was read (as a real blip).
  const body = new ReadableStream<Uint8Array>({
    pull(ctl) {
      if (i < chunks.length) ctl.enqueue(new TextEncoder().encode(chunks[i++]));
      else if (failAfter) ctl.error(new Error("network blip"));
      else ctl.close();
    },
  });
  return new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } });
}

const msg = (seq: number) => `id: ${seq}\nevent: step\ndata: {"seq":${seq}}\n\n`;

describe("follow", () => {
  it("reconnects after a blip with Last-Event-ID and the bearer header, losing and repeating nothing", async () => {
    const log: number[] = [];
    const asked: Array<{ last: string | null; auth: string | null }> = [];
    let last = 0;
    let call = 0;
    const fetchImpl = (async (_url: string, init: RequestInit) => {
      const h = new Headers(init.headers);
      asked.push({ last: h.get("Last-Event-ID"), auth: h.get("Authorization") });
      call += 1;
      const after = Number(h.get("Last-Event-ID"));
      if (call === 1) return stream([msg(1), msg(2), "id: 3\nda"], true); // cut mid-event
      if (call === 2) throw new TypeError("Failed to fetch");
      return stream([after + 1, after + 2, after + 3].filter((s) => s <= 5).map(msg));
    }) as typeof fetch;
    let ended = false;
    await follow({
      url: "http://127.0.0.1:1/api/runs/1/events",
      token: "t0ken",
      lastSeq: () => last,
      onMessage: (m: SseMessage) => {
        const seq = Number(m.id);
        log.push(seq);
        last = seq;
      },
      onEnd: () => (ended = true),
      signal: new AbortController().signal,
      fetchImpl,
      sleep: async () => undefined,
    });
    expect(ended).toBe(true);
    expect(log).toEqual([1, 2, 3, 4, 5]);
    expect(asked.map((a) => a.last)).toEqual(["0", "2", "2"]);
    expect(asked.every((a) => a.auth === "Bearer t0ken")).toBe(true);
  });

  it("takes a clean close before the last message for a cut link (WebKit's way) and resumes", async () => {
    const log: number[] = [];
    const asked: string[] = [];
    let last = 0;
    let call = 0;
    let retries = 0;
    const fetchImpl = (async (_url: string, init: RequestInit) => {
      asked.push(new Headers(init.headers).get("Last-Event-ID") ?? "");
      call += 1;
      if (call === 1) return stream([msg(1), msg(2)]); // closed cleanly mid-run
      return stream([msg(3), `id: 4\nevent: done\ndata: {"seq":4}\n\n`]);
    }) as typeof fetch;
    let ends = 0;
    await follow({
      url: "u",
      token: "t",
      lastSeq: () => last,
      onMessage: (m: SseMessage) => {
        log.push(Number(m.id));
        last = Number(m.id);
      },
      complete: () => last === 4,
      onEnd: () => (ends += 1),
      onRetry: () => (retries += 1),
      signal: new AbortController().signal,
      fetchImpl,
      sleep: async () => undefined,
    });
    expect(log).toEqual([1, 2, 3, 4]);
    expect(asked).toEqual(["0", "2"]);
    expect([ends, retries]).toEqual([1, 1]);
  });

  it("accepts the end after closes that bring nothing, though the last message never came", async () => {
    let calls = 0;
    let ends = 0;
    const fetchImpl = (async () => {
      calls += 1;
      return stream(calls === 1 ? [msg(1)] : []);
    }) as unknown as typeof fetch;
    await follow({
      url: "u",
      token: "t",
      lastSeq: () => 1,
      onMessage: () => undefined,
      complete: () => false,
      onEnd: () => (ends += 1),
      signal: new AbortController().signal,
      fetchImpl,
      sleep: async () => undefined,
    });
    expect([calls, ends]).toEqual([4, 1]);
  });

  it("stops on a 4xx instead of retrying forever", async () => {
    const fetchImpl = (async () => new Response("{}", { status: 401 })) as unknown as typeof fetch;
    await expect(
      follow({
        url: "u",
        token: "t",
        lastSeq: () => 0,
        onMessage: () => undefined,
        onEnd: () => undefined,
        signal: new AbortController().signal,
        fetchImpl,
        sleep: async () => undefined,
      }),
    ).rejects.toThrow(/401/);
  });
});

describe("follow after a silent link", () => {
  it("reconnects when the stream goes quiet (sleep, dropped link) and resumes after the last id", async () => {
    const asked: string[] = [];
    let last = 0;
    const got: number[] = [];
    let call = 0;
    const fetchImpl = (async (_url: string, init: RequestInit) => {
      asked.push(new Headers(init.headers).get("Last-Event-ID") ?? "");
      call += 1;
      if (call === 1) {
        // One event, then silence: never closes, never errors.
        let sent = false;
        const body = new ReadableStream<Uint8Array>({
          pull(ctl) {
            if (!sent) {
              sent = true;
              ctl.enqueue(new TextEncoder().encode(msg(1)));
            }
            return new Promise<void>(() => undefined);
          },
        });
        return new Response(body, { status: 200 });
      }
      return stream([msg(2), msg(3)]);
    }) as typeof fetch;
    await follow({
      url: "u",
      token: "t",
      lastSeq: () => last,
      onMessage: (m) => {
        last = Number(m.id);
        got.push(last);
      },
      onEnd: () => undefined,
      signal: new AbortController().signal,
      fetchImpl,
      sleep: async () => undefined,
      idleMs: 50,
    });
    expect(got).toEqual([1, 2, 3]);
    expect(asked).toEqual(["0", "1"]);
  });
});
