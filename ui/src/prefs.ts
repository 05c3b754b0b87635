// Small per-user choices kept in the browser's storage (never secrets).
import type { Lang } from "./i18n";

/** The report's language: "auto" lets the engine detect it (notes, then file and column names). */
export type ReportLang = "auto" | Lang;

export function reportLanguage(): ReportLang {
  const v = localStorage.getItem("labwright.reportLang");
  return v === "en" || v === "zh" ? v : "auto";
}

export function setReportLanguage(lang: ReportLang): void {
  localStorage.setItem("labwright.reportLang", lang);
}

/** Saves the report language with the engine too (it outlives the browser's storage). */
export function keepReportLanguage(api: { send: (m: "PUT", p: string, b: unknown) => Promise<unknown> }, lang: ReportLang): void {
  setReportLanguage(lang);
  void api.send("PUT", "/settings/ui", { report_lang: lang }).catch(() => undefined);
}

/** What a run request sends: "" asks the engine to detect the language. */
export function runLanguage(lang: ReportLang): "" | Lang {
  return lang === "auto" ? "" : lang;
}
