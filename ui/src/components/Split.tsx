// Two panes side by side with a handle between them: drag it (or use the arrow
// keys on it) to resize; the share is kept for the next start. The second pane
// can be collapsed, giving the first the whole width.
import { useRef, useState, type PointerEvent as ReactPointerEvent, type ReactNode } from "react";

const clampShare = (x: number) => Math.min(0.85, Math.max(0.25, x));

export function Split({
  first,
  second,
  collapsed,
  storageKey,
  label,
}: {
  first: ReactNode;
  second: ReactNode;
  collapsed: boolean;
  storageKey: string;
  label: string;
}) {
  const [share, setShareState] = useState(() => {
    const v = Number(localStorage.getItem(storageKey));
    return v > 0 ? clampShare(v) : 0.62;
  });
  const box = useRef<HTMLDivElement>(null);
  const setShare = (x: number) => {
    const v = clampShare(x);
    localStorage.setItem(storageKey, String(v));
    setShareState(v);
  };
  const drag = (e: ReactPointerEvent<HTMLDivElement>) => {
    const el = box.current;
    if (!el) return;
    e.preventDefault();
    const handle = e.currentTarget;
    handle.setPointerCapture(e.pointerId);
    const rect = el.getBoundingClientRect();
    const move = (ev: PointerEvent) => setShare((ev.clientX - rect.left) / rect.width);
    const up = () => {
      handle.removeEventListener("pointermove", move);
      handle.removeEventListener("pointerup", up);
    };
    handle.addEventListener("pointermove", move);
    handle.addEventListener("pointerup", up);
  };
  return (
    <div className="split" ref={box} data-collapsed={collapsed || undefined}>
      <div className="split-pane" style={{ flexBasis: collapsed ? "100%" : `${share * 100}%` }}>
        {first}
      </div>
      {!collapsed && (
        <>
          <div
            className="split-handle"
            role="separator"
            aria-orientation="vertical"
            aria-label={label}
            aria-valuemin={25}
            aria-valuemax={85}
            aria-valuenow={Math.round(share * 100)}
            tabIndex={0}
            onPointerDown={drag}
            onKeyDown={(e) => {
              if (e.key === "ArrowLeft") setShare(share - 0.05);
              else if (e.key === "ArrowRight") setShare(share + 0.05);
            }}
            data-testid="split-handle"
          />
          <div className="split-pane split-second">{second}</div>
        </>
      )}
    </div>
  );
}
