import { useEffect, useMemo, useState } from "react";
import type { Api, VersionOut, VersionSummary } from "../api/client";
import { originText, useT } from "../i18n";
import { changeCount, diffRows, foldContext } from "../state/diff";

export function Versions({
  api,
  sessionId,
  versions,
  onChange,
}: {
  api: Api;
  sessionId: number;
  versions: VersionSummary[];
  onChange: () => Promise<void>;
}) {
  const { t } = useT();
  const n = versions.length;
  const [a, setA] = useState<number | null>(null);
  const [b, setB] = useState<number | null>(null);
  const [texts, setTexts] = useState<Record<number, string>>({});
  const [note, setNote] = useState<string | null>(null);
  const left = a ?? versions[n - 2]?.version_no ?? versions[0]?.version_no ?? null;
  const right = b ?? versions[n - 1]?.version_no ?? null;

  useEffect(() => {
    for (const no of [left, right]) {
      if (no !== null && texts[no] === undefined) {
        void api
          .get<VersionOut>(`/sessions/${sessionId}/versions/${no}`)
          .then((v) => setTexts((cur) => ({ ...cur, [no]: v.content })));
      }
    }
  }, [api, sessionId, left, right, texts]);

  const diff = useMemo(() => {
    if (left === null || right === null) return null;
    const x = texts[left];
    const y = texts[right];
    return x === undefined || y === undefined ? null : diffRows(x, y);
  }, [left, right, texts]);

  if (n === 0) return <p>{t("noVersions")}</p>;

  const restore = async (no: number) => {
    const made = await api.send<VersionOut>("POST", `/sessions/${sessionId}/versions/${no}/restore`);
    setNote(t("restored", { n: made.version_no }));
    await onChange();
  };

  const pick = (value: number | null, set: (v: number) => void, testid: string) => (
    <select value={value ?? ""} onChange={(e) => set(Number(e.target.value))} data-testid={testid}>
      {versions.map((v) => (
        <option key={v.version_no} value={v.version_no}>
          {v.version_no}
        </option>
      ))}
    </select>
  );

  return (
    <div className="versions">
      {note && <p role="status">{note}</p>}
      <table data-testid="history">
        <thead>
          <tr>
            <th>{t("version")}</th>
            <th>{t("origin")}</th>
            <th>{t("summary")}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {[...versions].reverse().map((v) => (
            <tr key={v.version_no} data-version={v.version_no}>
              <td>{v.version_no}</td>
              <td>{originText(t, v.origin)}</td>
              <td>
                {v.change_summary} <span className="muted">{new Date(v.created_at).toLocaleString()}</span>
              </td>
              <td>
                {v.version_no !== versions[n - 1]?.version_no && (
                  <button type="button" onClick={() => void restore(v.version_no)} data-testid={`restore-${v.version_no}`}>
                    {t("restore")}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="row">
        {t("compare")} {pick(left, setA, "diff-a")} {t("with")} {pick(right, setB, "diff-b")}
        {diff && (
          <span className="muted" data-testid="diff-count">
            {" "}
            {changeCount(t, diff)}
          </span>
        )}
      </p>
      {diff && diff.added + diff.removed > 0 && (
        <pre className="diff" data-testid="diff">
          {foldContext(diff.rows).map((r, i) =>
            r.kind === "fold" ? (
              <div key={i} className="fold">⋯ {r.count}</div>
            ) : (
              <div key={i} className={`d-${r.kind}`}>
                {r.kind === "added" ? "+ " : r.kind === "removed" ? "− " : "  "}
                {r.text}
              </div>
            ),
          )}
        </pre>
      )}
    </div>
  );
}
