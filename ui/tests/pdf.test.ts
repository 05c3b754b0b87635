import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { numberLinks } from "../src/pdf/links";
import { placePopover } from "../src/pdf/popover";
import { ensureStreamIteration } from "../src/pdf/streams";
import { CSS_PER_PT, scaleOf, stepped } from "../src/pdf/zoom";

const FIXTURE = new URL("./fixtures/lwnum.pdf", import.meta.url);

describe("number links", () => {
  it("keeps only links to lwnum.<id> destinations, in percent of the page from its top", () => {
    const links = numberLinks(
      [
        { subtype: "Link", dest: "lwnum.n1", rect: [100, 692, 120, 702] },
        { subtype: "Link", dest: "section.2", rect: [0, 0, 10, 10] },
        { subtype: "Link", dest: ["x"], rect: [0, 0, 10, 10] },
        { subtype: "Widget", dest: "lwnum.n9", rect: [0, 0, 10, 10] },
        { subtype: "Link", dest: "lwnum.", rect: [0, 0, 10, 10] },
      ],
      [0, 0, 600, 800],
    );
    expect(links).toHaveLength(1);
    const [l] = links;
    expect(l!.id).toBe("n1");
    expect(l!.left).toBeCloseTo(100 / 6);
    expect(l!.top).toBeCloseTo((100 * 98) / 800);
    expect(l!.width).toBeCloseTo(20 / 6);
    expect(l!.height).toBeCloseTo(1.25);
  });

  it("finds every tagged number of a real hyperref PDF and nothing else (pdf.js getAnnotations)", async () => {
    const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
    const doc = await getDocument({ data: new Uint8Array(readFileSync(FIXTURE)), isEvalSupported: false }).promise;
    const ids: string[][] = [];
    for (let i = 1; i <= doc.numPages; i++) {
      const page = await doc.getPage(i);
      ids.push(numberLinks(await page.getAnnotations(), page.view).map((l) => l.id));
    }
    // The untagged "3.14" and the section numbers get no link.
    expect(ids).toEqual([["n1", "n2", "n3"], ["n4"]]);
    await doc.destroy();
  });
});

describe("stream iteration polyfill (WebKitGTK has no async iteration of ReadableStream)", () => {
  it("makes `for await` work on a stream whose prototype lacks it, and pdf.js reads page text through it", async () => {
    const proto = ReadableStream.prototype as unknown as Record<PropertyKey, unknown>;
    const saved = { iter: proto[Symbol.asyncIterator], values: proto.values };
    delete proto[Symbol.asyncIterator];
    delete proto.values;
    try {
      const plain = new ReadableStream<number>({
        start(c) {
          c.enqueue(1);
          c.enqueue(2);
          c.close();
        },
      });
      await expect(
        (async () => {
          for await (const _ of plain as unknown as AsyncIterable<number>) void _;
        })(),
      ).rejects.toThrow(TypeError);

      expect(ensureStreamIteration()).toBe(true);
      expect(ensureStreamIteration()).toBe(false); // once
      const got: number[] = [];
      const s = new ReadableStream<number>({
        start(c) {
          [1, 2, 3].forEach((n) => c.enqueue(n));
          c.close();
        },
      });
      for await (const n of s as unknown as AsyncIterable<number>) got.push(n);
      expect(got).toEqual([1, 2, 3]);
      expect(s.locked).toBe(false);

      // Leaving the loop early cancels the stream, as the standard says.
      let cancelled = false;
      const endless = new ReadableStream<number>({
        pull(c) {
          c.enqueue(0);
        },
        cancel() {
          cancelled = true;
        },
      });
      for await (const _ of endless as unknown as AsyncIterable<number>) break;
      expect(cancelled).toBe(true);

      const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
      const doc = await getDocument({ data: new Uint8Array(readFileSync(FIXTURE)), isEvalSupported: false }).promise;
      const text = await (await doc.getPage(1)).getTextContent();
      expect(text.items.map((i) => ("str" in i ? i.str : "")).join(" ")).toContain("3.14");
      await doc.destroy();
    } finally {
      proto[Symbol.asyncIterator] = saved.iter;
      proto.values = saved.values;
    }
  });
});

describe("zoom", () => {
  const fit = { pageWidth: 612, pageHeight: 792, paneWidth: 816, paneHeight: 528 };
  it("fits the width or the whole page", () => {
    expect(scaleOf({ mode: "width" }, fit)).toBeCloseTo(816 / (612 * CSS_PER_PT));
    expect(scaleOf({ mode: "page" }, fit)).toBeCloseTo(528 / (792 * CSS_PER_PT));
    expect(scaleOf({ mode: "scale", scale: 1.5 }, fit)).toBe(1.5);
  });
  it("steps to the next stop up or down from any scale, at least 5% away", () => {
    expect(stepped(1, 1)).toEqual({ mode: "scale", scale: 1.1 });
    expect(stepped(1.06, -1)).toEqual({ mode: "scale", scale: 1 });
    // A step is one you can see: at least 5% (fit width at 65% went to 67% on "+").
    expect(stepped(0.65, 1)).toEqual({ mode: "scale", scale: 0.75 });
    expect(stepped(1.03, -1)).toEqual({ mode: "scale", scale: 0.9 });
    expect(stepped(0.9, 1)).toEqual({ mode: "scale", scale: 1 });
    expect(stepped(3, 1)).toEqual({ mode: "scale", scale: 3 });
    expect(stepped(0.5, -1)).toEqual({ mode: "scale", scale: 0.5 });
  });
});

describe("popover placement", () => {
  const visible = { left: 0, top: 1000, width: 800, height: 600 };
  const size = { width: 300, height: 120 };
  it("goes beside the number: on the right when there is room, else below it", () => {
    const right = placePopover({ left: 100, top: 1200, width: 40, height: 14 }, size, visible);
    expect(right.side).toBe("right");
    expect(right.left).toBe(148);
    const below = placePopover({ left: 600, top: 1200, width: 40, height: 14 }, size, visible);
    expect(below.side).toBe("below");
    expect(below.top).toBe(1222);
    const above = placePopover({ left: 600, top: 1550, width: 40, height: 14 }, size, visible);
    expect(above.side).toBe("above");
    expect(above.top + size.height).toBeLessThanOrEqual(1550);
  });
  it("stays inside the visible part of the pane, near its edges too", () => {
    for (const anchor of [
      { left: 10, top: 1002, width: 40, height: 14 },
      { left: 380, top: 1590, width: 40, height: 14 },
      { left: 5, top: 1300, width: 790, height: 14 },
    ]) {
      const p = placePopover(anchor, size, visible);
      expect(p.left).toBeGreaterThanOrEqual(visible.left);
      expect(p.top).toBeGreaterThanOrEqual(visible.top);
      expect(p.left + size.width).toBeLessThanOrEqual(visible.left + visible.width);
      expect(p.top + size.height).toBeLessThanOrEqual(visible.top + visible.height);
    }
  });
});

import { findTags, sourceLines } from "../src/state/provenance";

describe("tags in the LaTeX source", () => {
  const tex = [
    "% \\hyperlink{lwnum.<id>}{...} in a comment is text",
    "The period is \\hyperlink{lwnum.n1}{3.14}~s and \\lwnum { n2 } {1.2\\times10^{-3}}.",
    "Plain 3.14 and section 2.",
  ].join("\n");
  it("finds each tag with its id, printed number and line, not in comments", () => {
    expect(findTags(tex).map(({ id, printed, line }) => ({ id, printed, line }))).toEqual([
      { id: "n1", printed: "3.14", line: 2 },
      { id: "n2", printed: "1.2\\times10^{-3}", line: 2 },
    ]);
  });
  it("splits the source into lines whose tags are parts of their own", () => {
    const lines = sourceLines(tex, findTags(tex));
    expect(lines).toHaveLength(3);
    expect(lines[1]!.filter((p) => p.kind === "tag").map((p) => (p.kind === "tag" ? p.tag.id : ""))).toEqual(["n1", "n2"]);
    expect(lines[2]).toEqual([{ kind: "text", text: "Plain 3.14 and section 2." }]);
    expect(lines.map((parts) => parts.map((p) => p.text).join("")).join("\n")).toBe(tex);
  });
});
