import { useEffect, useState } from "react";
import type { Api, RunOut, UsageOut } from "../api/client";
import { useT } from "../i18n";
import { costByStep, type RunView } from "../state/events";

export function money(cost: number | null | undefined, unknown: string): string {
  return cost === null || cost === undefined ? unknown : `$${cost.toFixed(4)}`;
}

export function Cost({ api, sessionId, run, view }: { api: Api; sessionId: number; run: RunOut | null; view: RunView }) {
  const { t } = useT();
  const [session, setSession] = useState<UsageOut | null>(null);
  useEffect(() => {
    void api.get<UsageOut>(`/sessions/${sessionId}/usage`).then(setSession, () => setSession(null));
  }, [api, sessionId, run?.id, view.done]);
  const rows = costByStep(view.usage);
  const u = t("unknown");
  return (
    <div className="cost" data-testid="cost">
      {rows.length === 0 && <p>{t("noUsage")}</p>}
      {rows.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>{t("step")}</th>
              <th>{t("calls")}</th>
              <th>{t("tokensIn")}</th>
              <th>{t("tokensOut")}</th>
              <th>{t("cost")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.step}>
                <td>{r.step}</td>
                <td>{r.calls}</td>
                <td>
                  {r.prompt} ({t("cached")} {r.prompt ? Math.round((100 * r.cached) / r.prompt) : 0}%)
                </td>
                <td>{r.completion}</td>
                <td>{money(r.cost, u)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {session && session.calls > 0 && (
        <p>
          {t("total")}: {session.calls} {t("calls")} · {session.prompt_tokens} {t("tokensIn")} ({t("cached")}{" "}
          {session.cached_tokens}) · {session.completion_tokens} {t("tokensOut")} ·{" "}
          {session.unpriced_calls > 0 ? `${money(session.cost, u)} + ${u}` : money(session.cost, u)}
        </p>
      )}
    </div>
  );
}
