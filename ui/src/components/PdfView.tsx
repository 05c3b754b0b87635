// A small PDF drawn on canvases (a vector figure on the progress screen). The
// report itself uses PdfViewer, with zoom, pages and number links.
import { useEffect, useRef, useState } from "react";
import type { PDFDocumentProxy } from "pdfjs-dist";
import { open, pdfjs } from "../pdf/load";

export function PdfView({
  data,
  label,
  scale = 1.4,
  testid = "pdf",
}: {
  data: ArrayBuffer;
  label: string;
  scale?: number;
  testid?: string;
}) {
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [rendered, setRendered] = useState(0);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | undefined;
    setDoc(null);
    setRendered(0);
    void (async () => {
      const task = open(await pdfjs(), data);
      destroy = () => void task.destroy();
      const loaded = await task.promise;
      if (!cancelled) setDoc(loaded);
    })().catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [data]);

  return (
    <div className="pdf" data-testid={testid} data-pages={rendered} data-failed={failed || undefined}>
      {doc &&
        Array.from({ length: doc.numPages }, (_, i) => (
          <Page key={i} doc={doc} n={i + 1} label={label} scale={scale} onRendered={() => setRendered((r) => r + 1)} />
        ))}
    </div>
  );
}

function Page({
  doc,
  n,
  label,
  scale,
  onRendered,
}: {
  doc: PDFDocumentProxy;
  n: number;
  label: string;
  scale: number;
  onRendered: () => void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
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
      if (!cancelled) done.current();
    })().catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [doc, n, scale]);
  return (
    <div className="pdf-page">
      <canvas ref={canvas} aria-label={`${label} ${n}`} data-page={n} />
    </div>
  );
}
