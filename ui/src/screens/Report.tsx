import { useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import type { Api, DiagnosticsOut, VersionOut, VersionSummary } from "../api/client";
import type { components } from "../api/schema";
import { PdfViewer, type Selection } from "../components/PdfViewer";
import { Split } from "../components/Split";
import { TexSource } from "../components/TexSource";
import { Citations } from "../components/Citations";
import { PROPOSALS_CHANGED } from "../state/citations";
import { originText, useT } from "../i18n";
import { describeSource, entriesById, folderLevel, type TaggedEntry } from "../state/provenance";
import { exportName, type ExportKind } from "../state/exportName";
import { saveExport, saveNote as noteOf, type SaveResult } from "../api/save";
import { inShell } from "../api/conn";

type ProvenanceOut = components["schemas"]["ProvenanceOut"];

const SOURCE_KEY = "labwright.sourcePane";

/**
 * The report screen: the PDF leads (zoom, pages, clickable numbers), the LaTeX
 * source beside it in a resizable, collapsible pane, and the trust panel below.
 * `side` is the slot for a panel beside the report (the chat panel goes there);
 * the report knows nothing about what is put in it, only tells it which
 * version is shown.
 */
export function Report({
  api,
  sessionId,
  sessionTitle,
  versions,
  side,
}: {
  api: Api;
  sessionId: number;
  sessionTitle: string;
  versions: VersionSummary[];
  side?: (shown: VersionSummary | null) => ReactNode;
}) {
  const { t, lang } = useT();
  const latest = versions[versions.length - 1] ?? null;
  const [no, setNo] = useState<number | null>(null);
  const shown = versions.find((v) => v.version_no === no) ?? latest;
  const [version, setVersion] = useState<VersionOut | null>(null);
  const [pdf, setPdf] = useState<ArrayBuffer | null>(null);
  const [prov, setProv] = useState<ProvenanceOut | null>(null);
  const [diag, setDiag] = useState<DiagnosticsOut | null>(null);
  const [selection, setSelection] = useState<Selection | null>(null);
  const [linkCount, setLinkCount] = useState<number | null>(null);
  const [sourceOpen, setSourceOpen] = useState(() => localStorage.getItem(SOURCE_KEY) !== "closed");
  // The last save's result, not its sentence: the note follows a language switch.
  const [saved, setSaved] = useState<{ result: SaveResult } | { error: string } | null>(null);

  useEffect(() => {
    if (!shown) return;
    const base = `/sessions/${sessionId}/versions/${shown.version_no}`;
    setPdf(null);
    setSaved(null);
    setSelection(null);
    setLinkCount(null);
    void api.get<VersionOut>(base).then(setVersion, () => setVersion(null));
    void api.get<ProvenanceOut>(`${base}/provenance`).then(setProv, () => setProv(null));
    if (shown.has_pdf) void api.bytes(`${base}/pdf`).then(setPdf, () => setPdf(null));
    void api.get<DiagnosticsOut>(`/sessions/${sessionId}/diagnostics`).then(setDiag, () => setDiag(null));
  }, [api, sessionId, shown?.version_no, shown?.has_pdf]);

  const byId = useMemo(() => entriesById((prov?.numbers ?? []) as TaggedEntry[]), [prov]);
  const toggleSource = () => {
    localStorage.setItem(SOURCE_KEY, sourceOpen ? "closed" : "open");
    setSourceOpen(!sourceOpen);
  };
  const onLinksFound = useCallback((n: number) => setLinkCount(n), []);

  if (!shown)
    return (
      <div className="report-layout">
        <p className="grow">{t("noRunYet")}</p>
        {side && <aside className="side-slot" data-slot="chat">{side(null)}</aside>}
      </div>
    );

  const download = async (kind: ExportKind) => {
    setSaved(null);
    const name = exportName(version?.content ?? "", sessionTitle, shown.version_no, kind);
    try {
      const res = await api.raw(`/sessions/${sessionId}/versions/${shown.version_no}/export/${kind}`);
      // Desktop: the native "Save as…" dialog; a cancelled one says nothing.
      setSaved({ result: await saveExport(await res.blob(), name, t) });
    } catch (err) {
      setSaved({ error: err instanceof Error && err.message ? err.message : t("error") });
    }
  };
  const saveText = saved && ("error" in saved ? saved.error : noteOf(saved.result, t));
  const saveFailed = !!saved && ("error" in saved || saved.result.outcome === "failed");
  // In the desktop app the buttons open a "Save as…" dialog; in a browser they download.
  const desktop = inShell();

  const entry = (id: string) => byId.get(id);
  const sourceOf = (id: string) => {
    const e = entry(id);
    return (
      <div className="source-card" data-testid="picked-source" data-id={id}>
        <strong className="source-number">{e?.printed ?? id}</strong>
        {e ? (
          <dl>
            {folderLevel(e) ? (
              <>
                <dt>{t("fromWhere")}</dt>
                <dd data-testid="source-folder">{t("wholeFolder")}</dd>
              </>
            ) : (
              <>
                <dt>{t("file")}</dt>
                <dd>
                  <code>{describeSource(e)}</code>
                </dd>
              </>
            )}
            <dt>{t("computation")}</dt>
            <dd>{(lang === "zh" && e.computation_zh) || e.computation}</dd>
          </dl>
        ) : (
          <p className="warn">{t("noSource")}</p>
        )}
      </div>
    );
  };

  const pdfPane = pdf ? (
    <PdfViewer
      data={pdf}
      selection={selection}
      onSelect={(id) => setSelection(id ? { id, reveal: false } : null)}
      numberLabel={(id) => t("numberLink", { n: entry(id)?.printed ?? id })}
      popover={sourceOf}
      onLinksFound={onLinksFound}
    />
  ) : (
    <p className="muted pane-note">{shown.has_pdf ? t("loadingPdf") : t("noPdf")}</p>
  );
  const sourcePane = (
    <section className="pane source-pane" aria-label={t("source")}>
      <h3>{t("source")}</h3>
      {version ? (
        <TexSource
          tex={version.content}
          selected={selection?.id ?? null}
          onSelect={(id) => setSelection({ id, reveal: true })}
          sourced={(id) => byId.has(id)}
        />
      ) : null}
    </section>
  );

  return (
    <div className="report-layout">
      <div className="report">
        <div className="row report-bar">
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
          <button type="button" onClick={toggleSource} aria-pressed={sourceOpen} data-testid="toggle-source">
            {sourceOpen ? t("hideSource") : t("showSource")}
          </button>
          <span className="spacer" />
          <button type="button" onClick={() => void download("pdf")} disabled={!shown.has_pdf} data-testid="export-pdf">
            {t(desktop ? "savePdf" : "exportPdf")}
          </button>
          <button type="button" onClick={() => void download("zip")} data-testid="export-zip">
            {t(desktop ? "saveZip" : "exportZip")}
          </button>
          <button
            type="button"
            onClick={() => void download("compendium")}
            disabled={!prov?.recorded}
            title={t("exportCompendiumHint")}
            data-testid="export-compendium"
          >
            {t(desktop ? "saveCompendium" : "exportCompendium")}
          </button>
        </div>
        {saveText && (
          <p
            role="status"
            className={saveFailed ? "warn" : "muted"}
            data-testid="save-note"
            data-failed={saveFailed ? "true" : undefined}
          >
            {saveText}
          </p>
        )}
        {pdf && linkCount === 0 && (prov?.numbers.length ?? 0) > 0 && (
          <p className="muted" data-testid="no-links">
            {t("noNumberLinks")}
          </p>
        )}
        <Split first={pdfPane} second={sourcePane} collapsed={!sourceOpen} storageKey="labwright.split" label={t("resizePanes")} />
        <section aria-label={t("trust")} className="trust" data-testid="trust">
          <h3>{t("trust")}</h3>
          <p className="muted">{t("trustHint")}</p>
          <h4>{t("unsourced")}</h4>
          <p data-testid="unsourced">
            {!prov?.recorded ? t("notRecorded") : prov.unsourced.length ? prov.unsourced.join(", ") : t("noneFound")}
          </p>
          <h4>{t("unverified")}</h4>
          <p>{prov?.unverified_citations.length ? prov.unverified_citations.join(", ") : t("noneFound")}</p>
          <h4>{t("citations")}</h4>
          <Citations
            verdicts={prov?.citations ?? []}
            onPropose={async (key) => {
              const path = `/sessions/${sessionId}/versions/${shown.version_no}/citations/${encodeURIComponent(key)}/proposal`;
              await api.send("POST", path);
              window.dispatchEvent(new Event(PROPOSALS_CHANGED));
            }}
          />
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
