// Async iteration of ReadableStream (`for await (const chunk of stream)`) is
// missing in Debian's WebKitGTK (the Linux desktop app's webview), and pdf.js
// uses it in `page.getTextContent()`: without this the text layer failed there
// and nothing on the page could be clicked. This adds `values()` and
// `[Symbol.asyncIterator]` exactly as the Streams standard defines them
// (reader locked for the loop, released at the end, the stream cancelled when
// the loop is left early unless `preventCancel`), only where they are absent.

type Proto = { getReader(): ReadableStreamDefaultReader<unknown> } & Record<PropertyKey, unknown>;

/** True when the polyfill was installed (false: the engine has it already). */
export function ensureStreamIteration(proto: object | undefined = globalThis.ReadableStream?.prototype): boolean {
  if (!proto) return false;
  const p = proto as Proto;
  if (typeof p[Symbol.asyncIterator] === "function") return false;
  async function* values(this: Proto, options?: { preventCancel?: boolean }) {
    const reader = this.getReader();
    let finished = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          finished = true;
          return;
        }
        yield value;
      }
    } finally {
      if (!finished && !options?.preventCancel) await reader.cancel().catch(() => undefined);
      reader.releaseLock();
    }
  }
  const define = (key: PropertyKey) =>
    Object.defineProperty(proto, key, { value: values, writable: true, configurable: true, enumerable: false });
  if (typeof p.values !== "function") define("values");
  define(Symbol.asyncIterator);
  return true;
}
