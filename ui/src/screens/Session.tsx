import { useCallback, useEffect, useState } from "react";
import type { Api, RunOut, SessionDetail, VersionSummary } from "../api/client";
import { useT, type Key } from "../i18n";
import { go, href, type Tab } from "../route";
import { useRun } from "../state/useRun";
import { Inventory } from "./Inventory";
import { Progress } from "./Progress";
import { ChatPanel } from "../chat/ChatPanel";
import { Report } from "./Report";
import { Versions } from "./Versions";
import { Cost } from "./Cost";
import { reportLanguage } from "../prefs";

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
  const run = runs[runs.length - 1] ?? null;
  const { view, ended, retrying } = useRun(api, run?.id ?? null);

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
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : t("error"));
    }
  }, [api, id, t]);

  useEffect(() => {
    void refresh();
  }, [refresh]);
  useEffect(() => {
    if (ended) void refresh();
  }, [ended, refresh]);

  const startRun = async () => {
    await api.send("POST", `/sessions/${id}/runs`, { language: reportLanguage() });
    await refresh();
    go({ name: "session", id, tab: "progress" });
  };

  if (error) return <p role="alert" className="error">{error}</p>;
  if (!session) return null;
  const active = run !== null && !ended && (run.status === "queued" || run.status === "running");
  return (
    <div className="session">
      <div className="row">
        <h1 className="grow">{session.title || session.source_path}</h1>
        <button type="button" className="primary" onClick={() => void startRun()} disabled={active}>
          {t("startRun")}
        </button>
      </div>
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
        {tab === "progress" && <Progress api={api} run={run} view={view} retrying={retrying} />}
        {tab === "report" && (
          <Report
            api={api}
            sessionId={id}
            versions={versions}
            side={(shown) => (
              <ChatPanel
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
