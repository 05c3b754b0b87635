// Recent sessions as the start screen lists them.
import type { Key, T } from "../i18n";

/**
 * A folder uploaded from a browser lives in a session-owned copy,
 * `<data>/uploads/<32 hex>/<folder name>` (server/routes/uploads.py): that
 * path is an internal detail, so the list says "uploaded folder" instead.
 */
export function isUploadedCopy(path: string): boolean {
  return /[\\/]uploads[\\/][0-9a-f]{32}[\\/][^\\/]+[\\/]?$/.test(path);
}

/**
 * A session's state in the list: its last run's status in words. A failed run
 * made no report (a run with problems that made one is "done"), so it is never
 * "finished with problems" (issue 21: such runs looked finished).
 */
export function runState(t: T, status: string): string {
  const key: Record<string, Key> = {
    new: "stateNew",
    queued: "running",
    running: "running",
    done: "done",
    failed: "stateFailed",
    cancelled: "stateCancelled",
    interrupted: "stateInterrupted",
  };
  return key[status] ? t(key[status]!) : status;
}
