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
  const [runUsage, setRunUsage] = useState<UsageOut | null>(null);
  useEffect(() => {
    void api.get<UsageOut>(`/sessions/${sessionId}/usage`).then(setSession, () => setSession(null));
    if (run) void api.get<UsageOut>(`/runs/${run.id}/usage`).then(setRunUsage, () => setRunUsage(null));
  }, [api, sessionId, run, view.done]);
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
      {runUsage && runUsage.calls > 0 && <Totals label={t("thisRun")} usage={runUsage} testid="run-total" />}
      {session && session.calls > 0 && <Totals label={t("total")} usage={session} testid="session-total" />}
    </div>
  );
}

function Totals({ label, usage, testid }: { label: string; usage: UsageOut; testid: string }) {
  const { t } = useT();
  const u = t("unknown");
  const share = usage.prompt_tokens ? Math.round((100 * usage.cached_tokens) / usage.prompt_tokens) : 0;
  return (
    <p data-testid={testid}>
      {label}: {usage.calls} {t("calls")} · {usage.prompt_tokens} {t("tokensIn")} ({t("cached")} {share}%) ·{" "}
      {usage.completion_tokens} {t("tokensOut")} ·{" "}
      {usage.unpriced_calls > 0 ? `${money(usage.cost, u)} + ${u}` : money(usage.cost, u)}
    </p>
  );
}
