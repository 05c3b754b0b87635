// Zoom of the PDF pane: fit the width, fit a whole page, or a step. A scale
// of 1 is 100%: one PDF point is 96/72 CSS pixels, as in pdf.js's own viewer.

export const CSS_PER_PT = 96 / 72;
export const STEPS = [0.5, 0.67, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3] as const;
const MIN = STEPS[0];
const MAX = STEPS[STEPS.length - 1]!;

export type Zoom = { mode: "width" } | { mode: "page" } | { mode: "scale"; scale: number };

export interface Fit {
  /** The page's size in PDF points (the largest page of the document). */
  pageWidth: number;
  pageHeight: number;
  /** The pane's inner size in CSS px (scroll bar and margins taken off by the caller). */
  paneWidth: number;
  paneHeight: number;
}

const clamp = (s: number) => Math.min(MAX, Math.max(MIN / 2, s));

/** The scale (1 = 100%) a zoom choice gives in a pane. */
export function scaleOf(zoom: Zoom, fit: Fit): number {
  if (zoom.mode === "scale") return zoom.scale;
  if (fit.pageWidth <= 0 || fit.pageHeight <= 0 || fit.paneWidth <= 0) return 1;
  const byWidth = fit.paneWidth / (fit.pageWidth * CSS_PER_PT);
  if (zoom.mode === "width") return clamp(byWidth);
  const byHeight = fit.paneHeight > 0 ? fit.paneHeight / (fit.pageHeight * CSS_PER_PT) : byWidth;
  return clamp(Math.min(byWidth, byHeight));
}

/** A step changes the size by at least this factor: fit width at 65% went to
 * the 67% stop on "+", a change nobody sees. */
const MIN_STEP = 1.05;

/** The next step up or down from the scale shown now, at least 5% away. */
export function stepped(current: number, direction: 1 | -1): Zoom {
  const next =
    direction > 0
      ? (STEPS.find((s) => s >= current * MIN_STEP - 1e-9) ?? MAX)
      : ([...STEPS].reverse().find((s) => s <= current / MIN_STEP + 1e-9) ?? MIN);
  return { mode: "scale", scale: next };
}

export const percent = (scale: number) => `${Math.round(scale * 100)}%`;
