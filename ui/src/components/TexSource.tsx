// The LaTeX source, one element per line (numbered), with each tagged number a
// button. The selected number's line is highlighted and scrolled into view
// inside this pane only (as Overleaf's SyncTeX does); the window and the PDF
// pane do not move.
import { useEffect, useMemo, useRef } from "react";
import { useT } from "../i18n";
import { findTags, sourceLines, type LinePart } from "../state/provenance";

export function TexSource({
  tex,
  selected,
  onSelect,
  sourced,
}: {
  tex: string;
  selected: string | null;
  onSelect: (id: string) => void;
  /** Whether a tagged id has a provenance entry (else it is marked "not traced"). */
  sourced: (id: string) => boolean;
}) {
  const { t } = useT();
  const lines = useMemo(() => sourceLines(tex, findTags(tex)), [tex]);
  const pane = useRef<HTMLDivElement>(null);
  const selectedLine = useMemo(() => {
    if (!selected) return null;
    const i = lines.findIndex((parts) => parts.some((p) => p.kind === "tag" && p.tag.id === selected));
    return i < 0 ? null : i + 1;
  }, [lines, selected]);

  useEffect(() => {
    const box = pane.current;
    const row = selectedLine ? box?.querySelector<HTMLElement>(`[data-line="${selectedLine}"]`) : null;
    if (!box || !row) return;
    // Positions from the layout boxes, not offsetTop: the rows' offset parent
    // is not the pane, and the pane may reach below the window's fold, so
    // "in view" is the part of the pane that is on screen.
    const paneRect = box.getBoundingClientRect();
    const top = row.getBoundingClientRect().top - paneRect.top + box.scrollTop;
    const shown = Math.max(0, Math.min(box.clientHeight, window.innerHeight - paneRect.top));
    if (top < box.scrollTop + 8 || top + row.offsetHeight > box.scrollTop + shown - 8) {
      box.scrollTo({ top: Math.max(0, top - shown / 3) });
    }
  }, [selectedLine]);

  const part = (p: LinePart, i: number) =>
    p.kind === "text" ? (
      p.text
    ) : (
      <button
        key={i}
        type="button"
        className={`num${sourced(p.tag.id) ? "" : " unsourced"}${p.tag.id === selected ? " is-picked" : ""}`}
        onClick={() => onSelect(p.tag.id)}
        aria-pressed={p.tag.id === selected}
        title={p.text}
        data-testid="num"
        data-id={p.tag.id}
      >
        {p.tag.printed}
      </button>
    );

  return (
    <div className="tex" ref={pane} data-testid="tex" role="region" aria-label={t("source")} tabIndex={0}>
      {lines.map((parts, i) => (
        <div
          key={i}
          className={i + 1 === selectedLine ? "tex-line is-picked-line" : "tex-line"}
          data-line={i + 1}
          data-testid={i + 1 === selectedLine ? "tex-picked-line" : undefined}
        >
          <span className="tex-no" aria-hidden="true">
            {i + 1}
          </span>
          <span className="tex-text">{parts.length ? parts.map(part) : "\u200b"}</span>
        </div>
      ))}
    </div>
  );
}
