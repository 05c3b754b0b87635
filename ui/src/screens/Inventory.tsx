import type { SessionDetail } from "../api/client";
import { kindText, useT } from "../i18n";
import { groupInventory } from "../state/inventory";

export function Inventory({ session }: { session: SessionDetail }) {
  const { t } = useT();
  const { groups, skipped } = groupInventory(session.inventory);
  return (
    <div className="inventory" data-testid="inventory">
      {groups.map(([kind, entries]) => (
        <section key={kind}>
          <h3>
            {kindText(t, kind)} ({entries.length})
          </h3>
          <ul>
            {entries.map((e) => (
              <li key={e.path}>
                <code>{e.path}</code> <span className="muted">{formatBytes(e.size)}</span>
              </li>
            ))}
          </ul>
        </section>
      ))}
      {skipped.length > 0 && (
        <section>
          <h3>{t("skipped")} ({skipped.length})</h3>
          <table>
            <thead>
              <tr>
                <th>{t("file")}</th>
                <th>{t("reason")}</th>
              </tr>
            </thead>
            <tbody>
              {skipped.map((e) => (
                <tr key={e.path}>
                  <td><code>{e.path}</code></td>
                  <td>{e.note}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </div>
  );
}

export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return "";
  if (n < 1024) return `${n} B`;
  if (n < 1 << 20) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1 << 20)).toFixed(1)} MB`;
}
