// Small per-user choices kept in the browser's storage (never secrets).
import type { Lang } from "./i18n";

export function reportLanguage(): Lang {
  return (localStorage.getItem("labwright.reportLang") as Lang | null) ?? "en";
}

export function setReportLanguage(lang: Lang): void {
  localStorage.setItem("labwright.reportLang", lang);
}
