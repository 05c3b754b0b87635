import { useCallback, useEffect, useRef, useState, type DragEvent } from "react";
import { errorText, type Api, type RunOut, type SessionDetail, type SessionOut } from "../api/client";
import { inShell, onFolderDropped, pickFolder } from "../api/conn";
import { filesFromDrop, filesFromInput, uploadFolder, UnreadableFiles, type PickedFile } from "../api/upload";
import { useT } from "../i18n";
import { go, href } from "../route";
import { keepReportLanguage, reportLanguage, runLanguage, type ReportLang } from "../prefs";
import { isUploadedCopy, runState } from "../state/sessions";

export function StartScreen({ api }: { api: Api }) {
  const { t } = useT();
  const [sessions, setSessions] = useState<SessionOut[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const [lang, setLangState] = useState<ReportLang>(reportLanguage);
  const setLang = (l: ReportLang) => {
    keepReportLanguage(api, l);
    setLangState(l);
  };
  const input = useRef<HTMLInputElement>(null);
  const shell = inShell();

  const [states, setStates] = useState<Record<number, string>>({});
  useEffect(() => {
    performance.mark("labwright-start-screen");
    api.get<SessionOut[]>("/sessions").then(
      (list) => {
        setSessions(list);
        // The state of each recent session is its last run's status (a few small requests).
        for (const s of list.slice(-20)) {
          void api
            .get<RunOut[]>(`/sessions/${s.id}/runs`)
            .then((runs) => setStates((cur) => ({ ...cur, [s.id]: runs.at(-1)?.status ?? "new" })));
        }
      },
      () => setSessions([]),
    );
  }, [api]);

  const begin = useCallback(
    async (session: SessionDetail) => {
      await api.send<RunOut>("POST", `/sessions/${session.id}/runs`, { language: runLanguage(reportLanguage()) });
      go({ name: "session", id: session.id, tab: "progress" });
    },
    [api],
  );

  const fail = (err: unknown) => {
    setBusy(null);
    if (err instanceof UnreadableFiles) {
      const [first = ""] = err.names;
      setError(
        err.names.length === 1 ? t("unreadableFile", { name: first }) : t("unreadableFiles", { n: err.names.length, name: first }),
      );
    } else setError(errorText(t, err));
  };

  const byPath = useCallback(
    async (path: string) => {
      setError(null);
      setBusy(path);
      try {
        await begin(await api.send<SessionDetail>("POST", "/sessions", { path }));
      } catch (err) {
        fail(err);
      }
    },
    [api, begin],
  );

  const byUpload = async (files: PickedFile[]) => {
    setError(null);
    if (files.length === 0) {
      setBusy(null);
      setError(t("emptyFolder"));
      return;
    }
    setBusy(t("uploading", { done: 0, total: files.length }));
    try {
      const session = await uploadFolder(api, files, (done, total) =>
        setBusy(t("uploading", { done, total })),
      );
      await begin(session);
    } catch (err) {
      fail(err);
    }
  };

  useEffect(() => {
    if (!shell) return;
    let off: (() => void) | undefined;
    void onFolderDropped((paths) => {
      if (paths[0]) void byPath(paths[0]);
    }).then((f) => (off = f));
    return () => off?.();
  }, [shell, byPath]);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (shell) return; // the shell delivers real paths through `folder-dropped`
    void filesFromDrop(e.dataTransfer.items).then(byUpload, fail);
  };

  const open = async () => {
    if (shell) {
      const path = await pickFolder(t("dialogPickFolder"));
      if (path) await byPath(path);
    } else input.current?.click();
  };

  return (
    <div className="start">
      <section
        className={over ? "drop over" : "drop"}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid="drop-zone"
        aria-label={t("dropTitle")}
      >
        <h1>{t("dropTitle")}</h1>
        <p>{t("dropHint")}</p>
        <button
          type="button"
          className="primary"
          data-testid="open-folder"
          onClick={() => void open()}
          disabled={busy !== null}
        >
          {t("openFolder")}
        </button>
        <input
          ref={input}
          type="file"
          hidden
          data-testid="folder-input"
          aria-label={t("chooseFolder")}
          webkitdirectory=""
          multiple
          onChange={(e) => e.target.files && void byUpload(filesFromInput(e.target.files))}
        />
        <label className="report-lang">
          {t("reportLanguageAt")}{" "}
          <select value={lang} onChange={(e) => setLang(e.target.value as ReportLang)} data-testid="report-language">
            <option value="auto">{t("reportLanguageAuto")}</option>
            <option value="en">{t("english")}</option>
            <option value="zh">{t("chinese")}</option>
          </select>
        </label>
        {busy && (
          <p role="status" data-testid="busy">
            {busy}
          </p>
        )}
        {error && (
          <p role="alert" className="error" data-testid="start-error">
            {error}
          </p>
        )}
      </section>
      <section className="recent" aria-labelledby="recent-h">
        <h2 id="recent-h">{t("recent")}</h2>
        {sessions === null ? null : sessions.length === 0 ? (
          <p>{t("noSessions")}</p>
        ) : (
          <ul data-testid="sessions">
            {[...sessions].reverse().map((s) => (
              <li key={s.id}>
                <a href={href({ name: "session", id: s.id, tab: "report" })} className="session-title">
                  <strong>{s.title || s.source_path}</strong>
                </a>
                <span className="muted path"> {isUploadedCopy(s.source_path) ? t("uploadedCopy") : s.source_path}</span>
                <span className="muted"> · {new Date(s.created_at).toLocaleString()}</span>
                <span className="muted"> · {t("files", { n: s.file_count })}</span>
                {states[s.id] && (
                  <span className={`state state-${states[s.id]}`} data-testid="session-state">
                    {" "}
                    · {runState(t, states[s.id]!)}
                  </span>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
