// The report's PDF: zoom (fit width, fit page, steps), page navigation, and the
// writer's numbers as buttons. A click on a number selects it and shows its
// source in a popover beside it, without moving the page; selecting a number
// elsewhere (the LaTeX source) scrolls the PDF to it only if it is out of view.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from "react";
import type { PDFDocumentProxy } from "pdfjs-dist";
import { useT } from "../i18n";
import type { NumberLink } from "../pdf/links";
import { open, pdfjs, reason, type PdfJs } from "../pdf/load";
import { placePopover, type Box } from "../pdf/popover";
import { CSS_PER_PT, percent, scaleOf, stepped, type Zoom } from "../pdf/zoom";
import { PdfPage, type PageProblem } from "./PdfPage";

const ZOOM_KEY = "labwright.pdfZoom";
const PAGE_GAP = 12; // px between pages and around them (matches .pdf-pages padding)

function savedZoom(): Zoom {
  try {
    const z = JSON.parse(localStorage.getItem(ZOOM_KEY) ?? "null") as Zoom | null;
    if (z && (z.mode === "width" || z.mode === "page" || (z.mode === "scale" && z.scale > 0))) return z;
  } catch {
    /* a broken value: the default */
  }
  return { mode: "width" };
}

export interface Selection {
  id: string;
  /** Set when the selection came from outside the PDF: scroll to it if hidden. */
  reveal: boolean;
}

export function PdfViewer({
  data,
  selection,
  onSelect,
  numberLabel,
  popover,
  onLinksFound,
}: {
  data: ArrayBuffer;
  selection: Selection | null;
  onSelect: (id: string | null) => void;
  numberLabel: (id: string) => string;
  popover: (id: string) => ReactNode;
  onLinksFound?: (count: number) => void;
}) {
  const { t } = useT();
  const [lib, setLib] = useState<PdfJs | null>(null);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [sizes, setSizes] = useState<Array<[number, number]>>([]);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [links, setLinks] = useState<Record<number, NumberLink[]>>({});
  const [rendered, setRendered] = useState<Set<number>>(() => new Set());
  const [zoom, setZoomState] = useState<Zoom>(savedZoom);
  const [pane, setPane] = useState({ width: 0, height: 0 });
  const [current, setCurrent] = useState(1);
  const [pageInput, setPageInput] = useState("1");
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);

  const setZoom = (z: Zoom) => {
    localStorage.setItem(ZOOM_KEY, JSON.stringify(z));
    setZoomState(z);
  };

  useEffect(() => {
    let cancelled = false;
    let destroy: (() => void) | undefined;
    setDoc(null);
    setSizes([]);
    setLinks({});
    setProblems({});
    setRendered(new Set());
    setLoadError(null);
    void (async () => {
      const l = await pdfjs();
      const task = open(l, data);
      destroy = () => void task.destroy();
      const d = await task.promise;
      const all: Array<[number, number]> = [];
      for (let i = 1; i <= d.numPages; i++) {
        const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = (await d.getPage(i)).view;
        all.push([x1 - x0, y1 - y0]);
      }
      if (cancelled) return;
      setLib(l);
      setSizes(all);
      setDoc(d);
    })().catch((err: unknown) => !cancelled && setLoadError(reason(err)));
    return () => {
      cancelled = true;
      destroy?.();
    };
  }, [data]);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const measure = () => setPane({ width: el.clientWidth - 2 * PAGE_GAP, height: el.clientHeight - 2 * PAGE_GAP });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const widest = useMemo(
    () => sizes.reduce<[number, number]>((m, [w, h]) => [Math.max(m[0], w), Math.max(m[1], h)], [0, 0]),
    [sizes],
  );
  const scale = scaleOf(zoom, { pageWidth: widest[0], pageHeight: widest[1], paneWidth: pane.width, paneHeight: pane.height });
  const px = scale * CSS_PER_PT;

  const onLinks = useCallback((page: number, found: NumberLink[]) => {
    setLinks((cur) => ({ ...cur, [page]: found }));
  }, []);
  useEffect(() => {
    if (doc && Object.keys(links).length === doc.numPages) {
      onLinksFound?.(Object.values(links).reduce((n, l) => n + l.length, 0));
    }
  }, [doc, links, onLinksFound]);
  const onProblem = useCallback(
    (page: number, kind: PageProblem, err: unknown) => {
      setProblems((cur) => ({ ...cur, [`${kind}`]: t(`pdfProblem_${kind}`, { page, reason: reason(err) }) }));
    },
    [t],
  );
  const onRendered = useCallback((page: number) => setRendered((cur) => new Set(cur).add(page)), []);

  // Page tracking: the page that fills the upper part of the pane is "current".
  const onScroll = () => {
    const el = scroller.current;
    const box = content.current;
    if (!el || !box) return;
    const line = el.scrollTop + el.clientHeight * 0.3;
    let page = 1;
    for (const child of Array.from(box.querySelectorAll<HTMLElement>(".pdf-page"))) {
      if (child.offsetTop <= line) page = Number(child.dataset.page);
    }
    if (page !== current) {
      setCurrent(page);
      setPageInput(String(page));
    }
  };
  useEffect(onScroll, [scale, doc]); // eslint-style note: recompute after a zoom

  const goTo = (page: number) => {
    const el = scroller.current;
    const target = content.current?.querySelector<HTMLElement>(`.pdf-page[data-page="${page}"]`);
    if (!el || !target) return;
    el.scrollTo({ top: target.offsetTop - PAGE_GAP });
    setCurrent(page);
    setPageInput(String(page));
  };
  const pages = doc?.numPages ?? 0;

  // The selected number's box in content coordinates (follows the zoom).
  const selected = selection?.id ?? null;
  // A number printed more than once (a result in its table, the discussion and
  // the conclusion) has one id: the popover goes beside the one clicked, not
  // beside the first on another page. A selection from the source pane has
  // no clicked place and takes the first.
  const [picked, setPicked] = useState<{ page: number; link: NumberLink } | null>(null);
  const anchor = useMemo(() => {
    if (!selected) return null;
    if (picked && picked.link.id === selected) {
      const size = sizes[picked.page - 1];
      if (size) return { page: picked.page, link: picked.link, size };
    }
    for (const [page, list] of Object.entries(links)) {
      const link = list.find((l) => l.id === selected);
      const size = sizes[Number(page) - 1];
      if (!link || !size) continue;
      return { page: Number(page), link, size };
    }
    return null;
  }, [selected, picked, links, sizes]);
  const [anchorBox, setAnchorBox] = useState<Box | null>(null);
  useLayoutEffect(() => {
    const pageEl = anchor && content.current?.querySelector<HTMLElement>(`.pdf-page[data-page="${anchor.page}"]`);
    if (!anchor || !pageEl) return setAnchorBox(null);
    const w = anchor.size[0] * px;
    const h = anchor.size[1] * px;
    setAnchorBox({
      left: pageEl.offsetLeft + (anchor.link.left / 100) * w,
      top: pageEl.offsetTop + (anchor.link.top / 100) * h,
      width: (anchor.link.width / 100) * w,
      height: (anchor.link.height / 100) * h,
    });
  }, [anchor, px, rendered.size]);

  // A selection from the source pane: bring the number into view if it is not.
  useEffect(() => {
    const el = scroller.current;
    if (!selection?.reveal || !anchorBox || !el) return;
    const inView =
      anchorBox.top >= el.scrollTop &&
      anchorBox.top + anchorBox.height <= el.scrollTop + el.clientHeight &&
      anchorBox.left >= el.scrollLeft &&
      anchorBox.left + anchorBox.width <= el.scrollLeft + el.clientWidth;
    if (!inView) {
      el.scrollTo({
        top: Math.max(0, anchorBox.top - el.clientHeight / 3),
        left: Math.max(0, anchorBox.left - el.clientWidth / 3),
      });
    }
  }, [selection, anchorBox]);

  const problemList = Object.values(problems);
  return (
    <div className="pdf-viewer" data-testid="pdf" data-pages={rendered.size} data-failed={loadError ? true : undefined}>
      <div className="pdf-toolbar row" role="toolbar" aria-label={t("pdfTools")}>
        <button type="button" onClick={() => goTo(current - 1)} disabled={current <= 1} aria-label={t("prevPage")} data-testid="page-prev">
          ‹
        </button>
        <label className="page-of">
          <span className="sr-only">{t("page")}</span>
          <input
            className="page-input"
            value={pageInput}
            inputMode="numeric"
            aria-label={t("page")}
            data-testid="page-input"
            onChange={(e) => setPageInput(e.target.value)}
            onKeyDown={(e) => {
              if (e.key !== "Enter") return;
              const n = Math.round(Number(pageInput));
              if (n >= 1 && n <= pages) goTo(n);
              else setPageInput(String(current));
            }}
            onBlur={() => setPageInput(String(current))}
          />{" "}
          <span data-testid="page-count">{t("pageOf", { n: pages })}</span>
        </label>
        <button type="button" onClick={() => goTo(current + 1)} disabled={current >= pages} aria-label={t("nextPage")} data-testid="page-next">
          ›
        </button>
        <span className="toolbar-gap" />
        <button type="button" onClick={() => setZoom(stepped(scale, -1))} aria-label={t("zoomOut")} data-testid="zoom-out">
          −
        </button>
        <span className="zoom-value" data-testid="zoom-value">
          {percent(scale)}
        </span>
        <button type="button" onClick={() => setZoom(stepped(scale, 1))} aria-label={t("zoomIn")} data-testid="zoom-in">
          +
        </button>
        <button type="button" aria-pressed={zoom.mode === "width"} onClick={() => setZoom({ mode: "width" })} data-testid="fit-width">
          {t("fitWidth")}
        </button>
        <button type="button" aria-pressed={zoom.mode === "page"} onClick={() => setZoom({ mode: "page" })} data-testid="fit-page">
          {t("fitPage")}
        </button>
      </div>
      {loadError && (
        <p role="alert" className="error" data-testid="pdf-error">
          {t("pdfProblem_load", { reason: loadError })}
        </p>
      )}
      {problemList.map((p) => (
        <p key={p} role="alert" className="warn" data-testid="pdf-problem">
          {p}
        </p>
      ))}
      <div
        className="pdf-scroll"
        ref={scroller}
        onScroll={onScroll}
        onKeyDown={(e) => e.key === "Escape" && onSelect(null)}
        tabIndex={-1}
      >
        <div className="pdf-pages" ref={content}>
          {doc &&
            lib &&
            sizes.map(([w, h], i) => (
              <PdfPage
                key={i}
                lib={lib}
                doc={doc}
                n={i + 1}
                scale={px}
                width={w}
                height={h}
                selected={selected}
                label={(link) => numberLabel(link.id)}
                onPick={(link, page) => {
                  const again =
                    link.id === selected &&
                    picked?.page === page &&
                    picked.link.left === link.left &&
                    picked.link.top === link.top;
                  setPicked(again ? null : { page, link });
                  onSelect(again ? null : link.id);
                }}
                onLinks={onLinks}
                onProblem={onProblem}
                onRendered={onRendered}
              />
            ))}
          {selected && anchorBox && scroller.current && (
            <Popover anchor={anchorBox} scroller={scroller.current} onClose={() => onSelect(null)}>
              {popover(selected)}
            </Popover>
          )}
        </div>
      </div>
    </div>
  );
}

function Popover({
  anchor,
  scroller,
  children,
  onClose,
}: {
  anchor: Box;
  scroller: HTMLElement;
  children: ReactNode;
  onClose: () => void;
}) {
  const { t } = useT();
  const el = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number; side: string } | null>(null);
  useLayoutEffect(() => {
    const box = el.current;
    if (!box) return;
    // What of the pane is on screen: the pane may reach below the window's
    // fold (a short window, a tall page), and a popover placed inside the pane
    // but below the fold is a click that shows nothing.
    const rect = scroller.getBoundingClientRect();
    const hiddenAbove = Math.max(0, -rect.top);
    const hiddenBelow = Math.max(0, rect.top + scroller.clientHeight - window.innerHeight);
    const visible = {
      left: scroller.scrollLeft,
      top: scroller.scrollTop + hiddenAbove,
      width: scroller.clientWidth,
      height: Math.max(0, scroller.clientHeight - hiddenAbove - hiddenBelow),
    };
    setPos(placePopover(anchor, { width: box.offsetWidth, height: box.offsetHeight }, visible));
  }, [anchor, scroller, children]);
  return (
    <div
      ref={el}
      className="pdf-popover"
      role="dialog"
      aria-label={t("numberSource")}
      data-testid="number-popover"
      data-side={pos?.side}
      style={{ left: pos?.left ?? anchor.left, top: pos?.top ?? anchor.top + anchor.height, visibility: pos ? "visible" : "hidden" }}
    >
      <button type="button" className="popover-close" onClick={onClose} aria-label={t("close")}>
        ×
      </button>
      {children}
    </div>
  );
}
