import { useEffect, useState } from "react";
import type { Api, RunOut } from "../api/client";
import { PdfView } from "../components/PdfView";
import { useT } from "../i18n";
import { currentStage, progress, type RunView } from "../state/events";

export function Progress({
  api,
  run,
  view,
  retrying,
}: {
  api: Api;
  run: RunOut | null;
  view: RunView;
  retrying: boolean;
}) {
  const { t } = useT();
  if (!run) return <p>{t("noRunYet")}</p>;
  const pct = progress(view);
  const stage = currentStage(view);
  const active = !view.done && (run.status === "queued" || run.status === "running");
  return (
    <div className="progress">
      <div className="row">
        <div
          className="bar-track"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
          aria-label={t("progress")}
          data-testid="progress"
        >
          <div className="bar-fill" style={{ width: `${pct}%` }} />
        </div>
        <span data-testid="progress-pct">{pct}%</span>
        {active && (
          <button type="button" onClick={() => void api.send("POST", `/runs/${run.id}/cancel`)}>
            {t("cancel")}
          </button>
        )}
      </div>
      <p data-testid="stage">
        {view.done
          ? view.done.ok
            ? t("done")
            : t("failed")
          : stage
            ? `${t("stage")} ${stage.index}/${stage.total}: ${stage.label || stage.stage}`
            : t("waiting")}
      </p>
      {retrying && <p role="status">{t("retrying")}</p>}
      {view.errors.map((e, i) => (
        <p key={i} className="error" role="alert">
          {e.message} {e.action}
        </p>
      ))}
      {view.done?.problems?.map((p, i) => (
        <p key={i} className="warn">
          {p}
        </p>
      ))}
      <div className="cols">
        <section aria-label={t("log")}>
          <h3>{t("log")}</h3>
          <ol className="log" data-testid="log">
            {view.log.map((l) => (
              <li key={l.seq} className={`log-${l.kind}`} data-seq={l.seq}>
                {l.kind === "done" ? (l.text === "done" ? t("done") : t("failed")) : l.text}
                {l.detail ? <span className="muted"> — {l.detail}</span> : null}
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
