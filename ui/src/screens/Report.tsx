import { useEffect, useMemo, useState, type ReactNode } from "react";
import type { Api, DiagnosticsOut, VersionOut, VersionSummary } from "../api/client";
import type { components } from "../api/schema";
import { PdfView } from "../components/PdfView";
import { originText, useT } from "../i18n";
import { describeSource, indexByPrinted, lookup, segments, type ProvenanceEntry } from "../state/provenance";

type ProvenanceOut = components["schemas"]["ProvenanceOut"];

/**
 * The report screen: PDF, LaTeX source, diagnostics and the trust panel.
 * `side` is the slot for a panel beside the report (the chat panel goes there);
 * the report knows nothing about what is put in it, only tells it which
 * version is shown.
 */
export function Report({
  api,
  sessionId,
  versions,
  side,
}: {
  api: Api;
  sessionId: number;
  versions: VersionSummary[];
  side?: (shown: VersionSummary | null) => ReactNode;
}) {
  const { t } = useT();
  const latest = versions[versions.length - 1] ?? null;
  const [no, setNo] = useState<number | null>(null);
  const shown = versions.find((v) => v.version_no === no) ?? latest;
  const [version, setVersion] = useState<VersionOut | null>(null);
  const [pdf, setPdf] = useState<ArrayBuffer | null>(null);
  const [prov, setProv] = useState<ProvenanceOut | null>(null);
  const [diag, setDiag] = useState<DiagnosticsOut | null>(null);
  const [picked, setPicked] = useState<{ text: string; entries: ProvenanceEntry[] } | null>(null);

  useEffect(() => {
    if (!shown) return;
    const base = `/sessions/${sessionId}/versions/${shown.version_no}`;
    setPdf(null);
    setPicked(null);
    void api.get<VersionOut>(base).then(setVersion, () => setVersion(null));
    void api.get<ProvenanceOut>(`${base}/provenance`).then(setProv, () => setProv(null));
    if (shown.has_pdf) void api.bytes(`${base}/pdf`).then(setPdf, () => setPdf(null));
    void api.get<DiagnosticsOut>(`/sessions/${sessionId}/diagnostics`).then(setDiag, () => setDiag(null));
  }, [api, sessionId, shown?.version_no, shown?.has_pdf]);

  const index = useMemo(() => indexByPrinted(prov?.numbers ?? []), [prov]);
  const printed = useMemo(() => new Set((prov?.numbers ?? []).map((n) => n.printed)), [prov]);
  const segs = useMemo(() => (version ? segments(version.content, index) : []), [version, index]);

  if (!shown)
    return (
      <div className="report-layout">
        <p className="grow">{t("noRunYet")}</p>
        {side && <aside className="side-slot" data-slot="chat">{side(null)}</aside>}
      </div>
    );

  const download = async (kind: "pdf" | "zip") => {
    const res = await api.raw(`/sessions/${sessionId}/versions/${shown.version_no}/export/${kind}`);
    const blob = await res.blob();
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = `labwright-session${sessionId}-v${shown.version_no}.${kind}`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  };

  return (
    <div className="report-layout">
      <div className="report">
        <div className="row">
          <label>
            {t("version")}{" "}
            <select value={shown.version_no} onChange={(e) => setNo(Number(e.target.value))} data-testid="report-version">
              {versions.map((v) => (
                <option key={v.version_no} value={v.version_no}>
                  {v.version_no} · {originText(t, v.origin)}
                </option>
              ))}
            </select>
          </label>
          <span className="spacer" />
          <button type="button" onClick={() => void download("pdf")} disabled={!shown.has_pdf} data-testid="export-pdf">
            {t("exportPdf")}
          </button>
          <button type="button" onClick={() => void download("zip")} data-testid="export-zip">
            {t("exportZip")}
          </button>
        </div>
        <div className="panes">
          <section className="pane" aria-label="PDF">
            {pdf ? (
              <PdfView
                data={pdf}
                label="PDF"
                numbers={printed}
                onNumber={(text) => setPicked({ text, entries: lookup(index, text) })}
              />
            ) : <p className="muted">{shown.has_pdf ? "…" : t("noDiagnostics")}</p>}
          </section>
          <section className="pane" aria-label={t("source")}>
            <h3>{t("source")}</h3>
            <p className="muted">{t("trustHint")}</p>
            <pre className="tex" data-testid="tex">
              {segs.map((s, i) =>
                s.kind === "text" ? (
                  s.text
                ) : (
                  <button
                    key={i}
                    type="button"
                    className={s.entries.length ? "num" : "num unsourced"}
                    onClick={() => setPicked({ text: s.text, entries: s.entries })}
                    data-testid="num"
                  >
                    {s.text}
                  </button>
                ),
              )}
            </pre>
          </section>
        </div>
        <section aria-label={t("trust")} className="trust" data-testid="trust">
          <h3>{t("trust")}</h3>
          {picked && (
            <div className="picked" role="status" data-testid="picked-source">
              <strong>{picked.text}</strong>{" "}
              {picked.entries.length === 0 ? (
                <span className="warn">{t("noSource")}</span>
              ) : (
                <ul>
                  {picked.entries.map((e, i) => (
                    <li key={i}>
                      {t("file")}: <code>{describeSource(e) || "—"}</code> · {t("computation")}: {e.computation}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          )}
          <h4>{t("unsourced")}</h4>
          <p data-testid="unsourced">{prov?.unsourced.length ? prov.unsourced.join(", ") : t("noneFound")}</p>
          <h4>{t("unverified")}</h4>
          <p>{prov?.unverified_citations.length ? prov.unverified_citations.join(", ") : t("noneFound")}</p>
          <h4>{t("diagnostics")}</h4>
          {diag && diag.messages.length > 0 ? (
            <ul>
              {diag.messages.map((m, i) => (
                <li key={i}>{m}</li>
              ))}
            </ul>
          ) : (
            <p>{t("noDiagnostics")}</p>
          )}
        </section>
      </div>
      <aside className="side-slot" data-slot="chat" hidden={!side}>
        {side?.(shown)}
      </aside>
    </div>
  );
}
