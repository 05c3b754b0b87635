// One page of the report's PDF: the canvas (drawn at the screen's pixel
// density), pdf.js's text layer (selectable text) and one button over each
// number the writer tagged (link annotations "lwnum.<id>", pdf/links.ts).
// pdf.js's own annotation layer is not used: it would follow the link and jump
// the page to its destination; here a click only shows the number's source.
// A failure of the text or the link layer is reported to the viewer, which
// shows it in one sentence (never swallowed).
import { useEffect, useRef, useState, type CSSProperties } from "react";
import type { PDFDocumentProxy } from "pdfjs-dist";
import type { PdfJs } from "../pdf/load";
import { numberLinks, type NumberLink } from "../pdf/links";

export type PageProblem = "render" | "text" | "links";

export function PdfPage({
  lib,
  doc,
  n,
  scale,
  width,
  height,
  selected,
  label,
  onPick,
  onLinks,
  onProblem,
  onRendered,
}: {
  lib: PdfJs;
  doc: PDFDocumentProxy;
  n: number;
  /** CSS px per PDF point. */
  scale: number;
  /** The page's size in PDF points. */
  width: number;
  height: number;
  selected: string | null;
  label: (link: NumberLink) => string;
  onPick: (link: NumberLink, page: number) => void;
  onLinks: (page: number, links: NumberLink[]) => void;
  onProblem: (page: number, kind: PageProblem, err: unknown) => void;
  onRendered: (page: number) => void;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const text = useRef<HTMLDivElement>(null);
  const [links, setLinks] = useState<NumberLink[]>([]);
  const cb = useRef({ onLinks, onProblem, onRendered });
  cb.current = { onLinks, onProblem, onRendered };

  // The links do not depend on the zoom: read once per page.
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const page = await doc.getPage(n);
      const found = numberLinks(await page.getAnnotations({ intent: "display" }), page.view);
      if (cancelled) return;
      setLinks(found);
      cb.current.onLinks(n, found);
    })().catch((err: unknown) => !cancelled && cb.current.onProblem(n, "links", err));
    return () => {
      cancelled = true;
    };
  }, [doc, n]);

  useEffect(() => {
    let cancelled = false;
    let task: { cancel: () => void } | null = null;
    let layer: { cancel: () => void } | null = null;
    void (async () => {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale });
      const c = canvas.current;
      if (!c || cancelled) return;
      const dpr = Math.min(window.devicePixelRatio || 1, 3);
      c.width = Math.floor(viewport.width * dpr);
      c.height = Math.floor(viewport.height * dpr);
      const render = page.render({
        canvas: c,
        viewport,
        transform: dpr === 1 ? undefined : [dpr, 0, 0, dpr, 0, 0],
      });
      task = render;
      try {
        await render.promise;
      } catch (err) {
        if (!cancelled) cb.current.onProblem(n, "render", err);
        return;
      }
      if (cancelled) return;
      cb.current.onRendered(n);
      const box = text.current;
      if (!box) return;
      box.replaceChildren();
      try {
        const textLayer = new lib.TextLayer({ textContentSource: page.streamTextContent(), container: box, viewport });
        layer = textLayer;
        await textLayer.render();
      } catch (err) {
        if (!cancelled) cb.current.onProblem(n, "text", err);
      }
    })().catch((err: unknown) => !cancelled && cb.current.onProblem(n, "render", err));
    return () => {
      cancelled = true;
      task?.cancel();
      layer?.cancel();
    };
  }, [lib, doc, n, scale]);

  return (
    <div
      className="pdf-page"
      data-testid="pdf-page"
      data-page={n}
      style={
        {
          width: `${width * scale}px`,
          height: `${height * scale}px`,
          "--total-scale-factor": String(scale),
          "--scale-round-x": "1px",
          "--scale-round-y": "1px",
        } as CSSProperties
      }
    >
      <canvas ref={canvas} aria-hidden="true" />
      <div ref={text} className="textLayer" />
      {links.map((link, i) => (
        <button
          key={`${link.id}-${i}`}
          type="button"
          className={selected === link.id ? "pdf-num is-picked" : "pdf-num"}
          style={{ left: `${link.left}%`, top: `${link.top}%`, width: `${link.width}%`, height: `${link.height}%` }}
          onClick={() => onPick(link, n)}
          aria-label={label(link)}
          aria-pressed={selected === link.id}
          data-testid="pdf-num"
          data-id={link.id}
        />
      ))}
    </div>
  );
}
