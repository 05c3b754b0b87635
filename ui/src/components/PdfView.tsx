// The PDF drawn on canvases by pdf.js, loaded on demand so the start screen
// does not pay for it; the worker is a local file of the build (never a CDN).
// Numbers that the provenance record knows are overlaid with buttons at their
// place on the page (from pdf.js's text positions), so a reader can click a
// number in the PDF itself and see where it came from.
import { useEffect, useRef, useState } from "react";
import type { PDFDocumentProxy } from "pdfjs-dist";

type PdfJs = typeof import("pdfjs-dist");

interface Token {
  text: string;
  left: number; // percent of the page
  top: number;
  width: number;
  height: number;
}

const NUMBER = /-?\d+(?:\.\d+)?/g;

export function PdfView({
  data,
  label,
  numbers,
  onNumber,
  scale = 1.4,
  testid = "pdf",
}: {
  data: ArrayBuffer;
  label: string;
  numbers?: ReadonlySet<string>;
  onNumber?: (text: string) => void;
  scale?: number;
  testid?: string;
}) {
  const [doc, setDoc] = useState<{ pdfjs: PdfJs; doc: PDFDocumentProxy } | null>(null);
  const [rendered, setRendered] = useState(0);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | undefined;
    setDoc(null);
    setRendered(0);
    void (async () => {
      const pdfjs = await import("pdfjs-dist");
      const worker = await import("pdfjs-dist/build/pdf.worker.min.mjs?url");
      pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
      // XeLaTeX embeds the Chinese Fandol fonts as CID CFF without ToUnicode.
      // pdf.js then needs the character maps (copied into the build as
      // cmaps/, see scripts/copy-cmaps.mjs) and must draw the glyphs as paths itself
      // (disableFontFace): its rebuilt web font is refused by the browser's
      // font sanitizer without a warning. Lacking either, every Chinese
      // character came out blank (seen in Chromium on the spectrum example).
      const task = pdfjs.getDocument({
        data: new Uint8Array(data.slice(0)),
        isEvalSupported: false,
        disableFontFace: true,
        cMapUrl: new URL("cmaps/", document.baseURI).href,
        cMapPacked: true,
      });
      destroy = () => void task.destroy();
      const loaded = await task.promise;
      if (!cancelled) setDoc({ pdfjs, doc: loaded });
    })().catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [data]);

  return (
    <div className="pdf" data-testid={testid} data-pages={rendered} data-failed={failed || undefined}>
      {doc &&
        Array.from({ length: doc.doc.numPages }, (_, i) => (
          <PdfPage
            key={i}
            pdfjs={doc.pdfjs}
            doc={doc.doc}
            n={i + 1}
            label={label}
            scale={scale}
            numbers={numbers}
            onNumber={onNumber}
            onRendered={() => setRendered((r) => r + 1)}
          />
        ))}
    </div>
  );
}

function PdfPage({
  pdfjs,
  doc,
  n,
  label,
  scale,
  numbers,
  onNumber,
  onRendered,
}: {
  pdfjs: PdfJs;
  doc: PDFDocumentProxy;
  n: number;
  label: string;
  scale: number;
  numbers?: ReadonlySet<string>;
  onNumber?: (text: string) => void;
  onRendered: () => void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [tokens, setTokens] = useState<Token[]>([]);
  const done = useRef(onRendered);
  done.current = onRendered;

  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale });
      const c = canvas.current;
      if (!c || cancelled) return;
      c.width = Math.floor(viewport.width);
      c.height = Math.floor(viewport.height);
      await page.render({ canvas: c, viewport }).promise;
      if (cancelled) return;
      done.current();
      const content = await page.getTextContent();
      const found: Token[] = [];
      for (const item of content.items) {
        if (!("str" in item) || !item.str) continue;
        const str = item.str.replace(/\u2212/g, "-");
        const tx = pdfjs.Util.transform(viewport.transform, item.transform);
        const height = Math.hypot(tx[2], tx[3]);
        const width = item.width * viewport.scale;
        for (const m of str.matchAll(NUMBER)) {
          const at = m.index ?? 0;
          found.push({
            text: m[0],
            left: (100 * (tx[4] + (width * at) / str.length)) / viewport.width,
            top: (100 * (tx[5] - height)) / viewport.height,
            width: (100 * width * m[0].length) / str.length / viewport.width,
            height: (100 * height * 1.2) / viewport.height,
          });
        }
      }
      if (!cancelled) setTokens(found);
    })().catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [pdfjs, doc, n, scale]);

  const shown = numbers && onNumber ? tokens.filter((t) => numbers.has(t.text)) : [];
  return (
    <div className="pdf-page">
      <canvas ref={canvas} aria-label={`${label} ${n}`} data-page={n} />
      {shown.map((t, i) => (
        <button
          key={i}
          type="button"
          className="pdf-num"
          style={{ left: `${t.left}%`, top: `${t.top}%`, width: `${t.width}%`, height: `${t.height}%` }}
          onClick={() => onNumber?.(t.text)}
          aria-label={t.text}
          data-testid="pdf-num"
        />
      ))}
    </div>
  );
}
