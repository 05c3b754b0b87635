// pdf.js, loaded on demand (the start screen never pays for it), with its
// worker as a local file of the build (never a CDN) and stream iteration
// polyfilled for WebKitGTK before any page is read.
import type { PDFDocumentLoadingTask } from "pdfjs-dist";
import { ensureStreamIteration } from "./streams";

export type PdfJs = typeof import("pdfjs-dist");

let loaded: Promise<PdfJs> | null = null;

export function pdfjs(): Promise<PdfJs> {
  loaded ??= (async () => {
    ensureStreamIteration();
    const lib = await import("pdfjs-dist");
    const worker = await import("pdfjs-dist/build/pdf.worker.min.mjs?url");
    lib.GlobalWorkerOptions.workerSrc = worker.default;
    return lib;
  })();
  loaded.catch(() => (loaded = null)); // a failed load (chunk lost to a network cut) may be tried again
  return loaded;
}

/**
 * XeLaTeX embeds the Chinese Fandol fonts as CID CFF without ToUnicode. pdf.js
 * then needs the character maps (copied into the build as cmaps/, see
 * scripts/copy-cmaps.mjs) and must draw the glyphs as paths itself
 * (disableFontFace): its rebuilt web font is refused by the browser's font
 * sanitizer without a warning. Lacking either, every Chinese character came
 * out blank (seen in Chromium on the spectrum example).
 */
export function open(lib: PdfJs, data: ArrayBuffer): PDFDocumentLoadingTask {
  return lib.getDocument({
    data: new Uint8Array(data.slice(0)),
    isEvalSupported: false,
    disableFontFace: true,
    cMapUrl: new URL("cmaps/", document.baseURI).href,
    cMapPacked: true,
  });
}

/** One short reason for a failure, for the sentence that shows it. */
export function reason(err: unknown): string {
  const text = err instanceof Error ? `${err.name === "Error" ? "" : `${err.name}: `}${err.message}` : String(err);
  return text.length > 140 ? `${text.slice(0, 137)}…` : text;
}
