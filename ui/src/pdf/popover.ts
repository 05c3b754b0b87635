// Where the source popover goes: beside the clicked number, on the side with
// room, and always inside the visible part of the pane (never below the fold).

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Placed {
  left: number;
  top: number;
  side: "right" | "left" | "below" | "above";
}

/**
 * `anchor` and `visible` are in the same coordinates (the scroll content's);
 * `visible` is the part of the content in view. `size` is the popover's.
 */
export function placePopover(anchor: Box, size: { width: number; height: number }, visible: Box, gap = 8): Placed {
  const right = visible.left + visible.width;
  const bottom = visible.top + visible.height;
  const clampX = (x: number) => Math.max(visible.left + gap, Math.min(x, right - size.width - gap));
  const clampY = (y: number) => Math.max(visible.top + gap, Math.min(y, bottom - size.height - gap));
  const midY = anchor.top + anchor.height / 2 - size.height / 2;
  // Right of the number, else under it (the number's own line stays readable),
  // else above it, else on its left.
  if (anchor.left + anchor.width + gap + size.width + gap <= right) {
    return { left: anchor.left + anchor.width + gap, top: clampY(midY), side: "right" };
  }
  if (anchor.top + anchor.height + gap + size.height + gap <= bottom) {
    return { left: clampX(anchor.left), top: anchor.top + anchor.height + gap, side: "below" };
  }
  if (anchor.top - gap - size.height - gap >= visible.top) {
    return { left: clampX(anchor.left), top: anchor.top - gap - size.height, side: "above" };
  }
  if (anchor.left - gap - size.width - gap >= visible.left) {
    return { left: anchor.left - gap - size.width, top: clampY(midY), side: "left" };
  }
  return { left: clampX(anchor.left), top: clampY(anchor.top - gap - size.height), side: "above" };
}
