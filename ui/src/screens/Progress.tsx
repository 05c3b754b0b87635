import { useEffect, useState } from "react";
import type { Api, RunOut } from "../api/client";
import { PdfView } from "../components/PdfView";
import { errorText } from "../api/client";
import { useT, type Key, type Lang, type T } from "../i18n";
import { href } from "../route";
import { milestoneName, say, type Said } from "../serverText";
import { currentStage, outcome, progress, type LogLine, type Outcome, type RunView } from "../state/events";

export function Progress({
  api,
  run,
  view,
  retrying,
  onOpenReport,
  onChanged,
}: {
  api: Api;
  run: RunOut | null;
  view: RunView;
  /** The event stream is reconnecting (said once, by the window's banner; the bar stays as it was). */
  retrying: boolean;
  /** Shown when the run made a report: opens it. */
  onOpenReport?: () => void;
  /** The run's record may have changed (a cancel was asked for): read it again. */
  onChanged?: () => Promise<void>;
}) {
  const { t, lang } = useT();
  const [cancelError, setCancelError] = useState<string | null>(null);
  if (!run) return <p>{t("noRunYet")}</p>;
  // A run's own status is the truth once it ended; a cancel asked for and a
  // failed end is a cancellation even before the status is read again.
  const ended = view.done !== null || !["queued", "running"].includes(run.status);
  const status = !ended ? null : run.cancel_requested && !view.done?.ok && run.status !== "done" ? "cancelled" : run.status;
  const out = outcome(view, status);
  const pct = progress(view, status);
  const stage = currentStage(view);
  const active = out === "running" || out === "waiting";
  const said = (s: Said) => say(lang, s);
  const cancel = async () => {
    setCancelError(null);
    try {
      await api.send("POST", `/runs/${run.id}/cancel`);
      await onChanged?.();
    } catch (err) {
      setCancelError(errorText(t, err));
    }
  };
  return (
    <div className="progress" data-outcome={out} data-reconnecting={retrying || undefined}>
      <div className="row">
        <div
          className={`bar-track bar-${out}`}
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
          aria-label={t("progress")}
          data-testid="progress"
          data-outcome={out}
        >
          <div className="bar-fill" style={{ width: `${pct}%` }} />
        </div>
        <span data-testid="progress-pct">{pct}%</span>
        {active && (
          <button type="button" onClick={() => void cancel()} data-testid="cancel-run">
            {t("cancel")}
          </button>
        )}
        {(out === "done" || out === "problems") && onOpenReport && (
          <button type="button" className="primary" onClick={onOpenReport} data-testid="open-report">
            {t("openReport")}
          </button>
        )}
      </div>
      <p data-testid="stage" className={`outcome outcome-${out}`}>
        {active && stage
          ? t("stageOf", { index: stage.index, total: stage.total, name: milestoneName(lang, stage) })
          : t(`outcome_${out}` as Key)}
      </p>
      {cancelError && (
        <p role="alert" className="error">
          {cancelError}
        </p>
      )}
      {view.notices.length > 0 && (
        <ul className="notices" data-testid="notices">
          {view.notices.map((n, i) => (
            <li key={i} className={n.level === "error" ? "error" : "warn"} role={n.level === "error" ? "alert" : undefined}>
              {said(n.said)}
              {n.action && n.action.text ? ` ${said(n.action)}` : ""}
              {n.link === "settings" && (
                <>
                  {" "}
                  <a href={href({ name: "settings" })} data-testid="notice-settings">
                    {t("openSettings")}
                  </a>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <div className="cols">
        <section aria-label={t("log")}>
          <h3>{t("log")}</h3>
          <ol className="log" data-testid="log">
            {view.log.map((l) => (
              <li key={l.seq} className={`log-${l.kind}`} data-seq={l.seq}>
                {logText(t, lang, l, out)}
                {l.detail && l.detail.text ? <span className="muted"> — {said(l.detail)}</span> : null}
              </li>
            ))}
          </ol>
        </section>
        <section aria-label={t("figures")}>
          <h3>{t("figures")}</h3>
          <ul className="figures" data-testid="figures">
            {view.figures.map((f) => (
              <li key={f.name} title={f.source}>
                <FigureThumb api={api} runId={run.id} name={f.file} />
              </li>
            ))}
          </ul>
          {view.draft && (
            <>
              <h3>{t("draft")}</h3>
              <pre className="draft">{view.draft}</pre>
            </>
          )}
        </section>
      </div>
    </div>
  );
}

function logText(t: T, lang: Lang, l: LogLine, out: Outcome): string {
  if (l.kind === "milestone" && l.milestone) return milestoneName(lang, l.milestone);
  if (l.kind === "done") return t(`outcome_${out === "running" || out === "waiting" ? "done" : out}`);
  return say(lang, l.said);
}

// A figure the run has drawn: an image, or a vector PDF drawn by pdf.js
// (the offline writer makes vector figures). Fetched with the token.
function FigureThumb({ api, runId, name }: { api: Api; runId: number; name: string }) {
  const [blob, setBlob] = useState<Blob | null>(null);
  const [url, setUrl] = useState<string | null>(null);
  const [pdf, setPdf] = useState<ArrayBuffer | null>(null);
  useEffect(() => {
    let cancelled = false;
    api
      .raw(`/runs/${runId}/figures/${encodeURIComponent(name)}`)
      .then((r) => r.blob())
      .then((b) => !cancelled && setBlob(b))
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [api, runId, name]);
  useEffect(() => {
    if (!blob) return;
    if (/\.pdf$/i.test(name)) {
      void blob.arrayBuffer().then(setPdf);
      return;
    }
    const u = URL.createObjectURL(blob);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [blob, name]);
  if (pdf) return <PdfView data={pdf} label={name} scale={0.6} testid="figure-pdf" />;
  return url && /\.(png|jpe?g|svg)$/i.test(name) ? <img src={url} alt={name} /> : <span>{name}</span>;
}
