// The PDF drawn on canvases by pdf.js, loaded on demand so the start screen
// does not pay for it; the worker is a local file of the build (never a CDN).
import { useEffect, useRef, useState } from "react";

export function PdfView({ data, label }: { data: ArrayBuffer; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [pages, setPages] = useState(0);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | undefined;
    void (async () => {
      const pdfjs = await import("pdfjs-dist");
      const worker = await import("pdfjs-dist/build/pdf.worker.min.mjs?url");
      pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
      const task = pdfjs.getDocument({ data: new Uint8Array(data.slice(0)), isEvalSupported: false });
      destroy = () => void task.destroy();
      const doc = await task.promise;
      const target = host.current;
      if (cancelled || !target) return;
      target.replaceChildren();
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n);
        const viewport = page.getViewport({ scale: 1.4 });
        const canvas = document.createElement("canvas");
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.setAttribute("aria-label", `${label} ${n}`);
        canvas.dataset.page = String(n);
        target.appendChild(canvas);
        await page.render({ canvas, viewport }).promise;
        if (cancelled) return;
        setPages(n);
      }
    })().catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [data, label]);

  return (
    <div className="pdf" data-testid="pdf" data-pages={pages} data-failed={failed || undefined}>
      <div ref={host} />
    </div>
  );
}
