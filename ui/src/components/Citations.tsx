// The citations panel of the trust section: each reference's verdict from the
// check against Crossref and OpenAlex, the record that decided, and for a
// corrected entry of the person's own .bib the fields that differ, with a
// button that turns the correction into a proposal (accepted or rejected in
// the chat like any edit; the .bib is never changed without it).
import { useState } from "react";
import { useT } from "../i18n";
import {
  canPropose,
  countVerdicts,
  differenceLines,
  evidenceLine,
  sortedVerdicts,
  type CitationVerdict,
  type VerdictKind,
} from "../state/citations";

const LABEL: Record<VerdictKind, "citeVerified" | "citeCorrected" | "citeUnverifiable" | "citeNotFound"> = {
  verified: "citeVerified",
  corrected: "citeCorrected",
  unverifiable: "citeUnverifiable",
  not_found: "citeNotFound",
};

type Sent = "sending" | "sent" | string;

export function Citations({
  verdicts,
  onPropose,
}: {
  verdicts: readonly CitationVerdict[];
  /** Propose the correction of `key`; rejects with a sentence to show. */
  onPropose?: (key: string) => Promise<void>;
}) {
  const { t } = useT();
  const [sent, setSent] = useState<Record<string, Sent>>({});
  if (verdicts.length === 0)
    return (
      <p className="muted" data-testid="citations-none">
        {t("citeNone")}
      </p>
    );
  const counts = countVerdicts(verdicts);
  const propose = async (key: string) => {
    if (!onPropose) return;
    setSent((s) => ({ ...s, [key]: "sending" }));
    try {
      await onPropose(key);
      setSent((s) => ({ ...s, [key]: "sent" }));
    } catch (err) {
      setSent((s) => ({ ...s, [key]: err instanceof Error ? err.message : String(err) }));
    }
  };
  return (
    <div className="citations" data-testid="citations">
      <p className="muted" data-testid="citations-counts">
        {(["not_found", "corrected", "unverifiable", "verified"] as const)
          .filter((k) => counts[k] > 0)
          .map((k) => `${t(LABEL[k])}: ${counts[k]}`)
          .join(" · ")}
      </p>
      <ul>
        {sortedVerdicts(verdicts).map((v) => {
          const state = sent[v.key];
          const line = evidenceLine(v);
          return (
            <li key={`${v.origin}:${v.key}`} data-verdict={v.verdict} data-key={v.key}>
              <strong>{v.key}</strong> <span className={`verdict verdict-${v.verdict}`}>{t(LABEL[v.verdict])}</span>
              {v.origin === "model" && <span className="muted"> · {t(v.cited ? "citeModelCited" : "citeModelDropped")}</span>}
              <div className="muted">{v.reason}</div>
              {line && (
                <div className="muted">
                  {v.evidence?.url ? (
                    <a href={v.evidence.url} target="_blank" rel="noreferrer">
                      {line}
                    </a>
                  ) : (
                    line
                  )}
                </div>
              )}
              {v.differences.length > 0 && (
                <ul className="differences">
                  {differenceLines(v).map((d) => (
                    <li key={d}>
                      <code>{d}</code>
                    </li>
                  ))}
                </ul>
              )}
              {canPropose(v) && onPropose && (
                <div>
                  <button
                    type="button"
                    disabled={state === "sending" || state === "sent"}
                    onClick={() => void propose(v.key)}
                    data-testid={`propose-${v.key}`}
                  >
                    {t("citePropose")}
                  </button>
                  {state === "sent" && <span role="status"> {t("citeProposed")}</span>}
                  {state && state !== "sending" && state !== "sent" && <span role="alert"> {state}</span>}
                </div>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
