import { useCallback, useEffect, useRef, useState } from "react";
import { errorText, type Api, type RunOut, type SessionDetail, type VersionSummary } from "../api/client";
import { useT, type Key } from "../i18n";
import { go, href, type Tab } from "../route";
import { useRun } from "../state/useRun";
import { Inventory } from "./Inventory";
import { Progress } from "./Progress";
import { ChatPanel } from "../chat/ChatPanel";
import { Report } from "./Report";
import { Versions } from "./Versions";
import { Cost } from "./Cost";
import { reportLanguage, runLanguage } from "../prefs";

const TABS: Array<[Tab, Key]> = [
  ["inventory", "inventory"],
  ["progress", "progress"],
  ["report", "report"],
  ["versions", "versions"],
  ["cost", "cost"],
];

export function SessionScreen({ api, id, tab }: { api: Api; id: number; tab: Tab }) {
  const { t } = useT();
  const [session, setSession] = useState<SessionDetail | null>(null);
  const [runs, setRuns] = useState<RunOut[]>([]);
  const [versions, setVersions] = useState<VersionSummary[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  const run = runs[runs.length - 1] ?? null;
  const { view, ended, retrying } = useRun(api, run?.id ?? null);
  // The run that was still going when this screen followed it: when it ends
  // with a report, the report opens (a run finished long ago opens nothing).
  const watched = useRef<number | null>(null);

  const refresh = useCallback(async () => {
    try {
      const [s, r, v] = await Promise.all([
        api.get<SessionDetail>(`/sessions/${id}`),
        api.get<RunOut[]>(`/sessions/${id}/runs`),
        api.get<VersionSummary[]>(`/sessions/${id}/versions`),
      ]);
      setSession(s);
      setRuns(r);
      setVersions(v);
      const last = r[r.length - 1];
      if (last && (last.status === "queued" || last.status === "running")) watched.current = last.id;
    } catch (err) {
      // Unanswered reads wait for the engine (api/client.ts); this is a real refusal.
      setError(errorText(t, err));
    }
  }, [api, id, t]);

  useEffect(() => {
    void refresh();
  }, [refresh]);
  useEffect(() => {
    if (ended) void refresh();
  }, [ended, refresh]);
  // Open the report once the watched run's version is listed.
  useEffect(() => {
    if (!ended || !run || watched.current !== run.id || tab !== "progress") return;
    if (run.status !== "done" || !versions.some((v) => v.run_id === run.id)) return;
    watched.current = null;
    go({ name: "session", id, tab: "report" });
  }, [ended, run, versions, tab, id]);

  const startRun = async () => {
    setStartError(null);
    try {
      await api.send("POST", `/sessions/${id}/runs`, { language: runLanguage(reportLanguage()) });
      await refresh();
      go({ name: "session", id, tab: "progress" });
    } catch (err) {
      setStartError(errorText(t, err));
    }
  };

  if (error) return <p role="alert" className="error">{error}</p>;
  if (!session) return null;
  const active = run !== null && !ended && (run.status === "queued" || run.status === "running");
  return (
    <div className="session">
      <div className="row">
        <h1 className="grow title">{session.title || session.source_path}</h1>
        <button type="button" className="primary" onClick={() => void startRun()} disabled={active} data-testid="start-run">
          {t("startRun")}
        </button>
      </div>
      {startError && (
        <p role="alert" className="error">
          {startError}
        </p>
      )}
      <nav className="tabs" aria-label={session.title}>
        {TABS.map(([name, key]) => (
          <a
            key={name}
            aria-current={tab === name ? "page" : undefined}
            href={href({ name: "session", id, tab: name })}
            data-testid={`tab-${name}`}
          >
            {t(key)}
          </a>
        ))}
      </nav>
      <div>
        {tab === "inventory" && <Inventory session={session} />}
        {tab === "progress" && (
          <Progress
            api={api}
            run={run}
            view={view}
            retrying={retrying}
            onChanged={refresh}
            onOpenReport={() => go({ name: "session", id, tab: "report" })}
          />
        )}
        {tab === "report" && (
          <Report
            api={api}
            sessionId={id}
            sessionTitle={session.title}
            versions={versions}
            side={(shown) => (
              <ChatPanel
                key={id}
                api={api}
                sessionId={id}
                versions={versions}
                shownVersionNo={shown?.version_no ?? null}
                runActive={active}
                onVersionsChanged={refresh}
              />
            )}
          />
        )}
        {tab === "versions" && <Versions api={api} sessionId={id} versions={versions} onChange={refresh} />}
        {tab === "cost" && <Cost api={api} sessionId={id} run={run} view={view} />}
      </div>
    </div>
  );
}
