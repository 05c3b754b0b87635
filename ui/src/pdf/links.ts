// The numbers the writer emitted, found in the PDF itself: each one is a link
// annotation whose destination name is "lwnum." + the provenance entry's id
// (the writer tags it in the TeX; hyperref carries it into the PDF). Nothing
// here matches strings of the page text, so an axis tick or a section number
// that happens to print the same digits never gets a source.

export const NUMBER_DEST = "lwnum.";

export interface NumberLink {
  /** The provenance entry's id. */
  id: string;
  /** Box in percent of the page, from its top-left corner (CSS-ready). */
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The subset of a pdf.js annotation this needs. */
export interface AnnotationLike {
  subtype?: string;
  dest?: unknown;
  rect?: number[];
}

/**
 * Number links of one page. `view` is the page's [x0, y0, x1, y1] in PDF
 * units (pdf.js `page.view`); PDF y grows upwards, CSS y downwards.
 */
export function numberLinks(annotations: readonly AnnotationLike[], view: readonly number[]): NumberLink[] {
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = view;
  const w = x1 - x0;
  const h = y1 - y0;
  if (w <= 0 || h <= 0) return [];
  const out: NumberLink[] = [];
  for (const a of annotations) {
    if (a.subtype !== "Link" || typeof a.dest !== "string" || !a.dest.startsWith(NUMBER_DEST)) continue;
    const id = a.dest.slice(NUMBER_DEST.length);
    const [ax = 0, ay = 0, bx = 0, by = 0] = a.rect ?? [];
    if (!id || bx === ax || by === ay) continue;
    const left = Math.min(ax, bx) - x0;
    const top = y1 - Math.max(ay, by);
    out.push({
      id,
      left: (100 * left) / w,
      top: (100 * top) / h,
      width: (100 * Math.abs(bx - ax)) / w,
      height: (100 * Math.abs(by - ay)) / h,
    });
  }
  return out;
}
