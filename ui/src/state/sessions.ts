// Recent sessions as the start screen lists them.

/**
 * A folder uploaded from a browser lives in a session-owned copy,
 * `<data>/uploads/<32 hex>/<folder name>` (server/routes/uploads.py): that
 * path is an internal detail, so the list says "uploaded folder" instead.
 */
export function isUploadedCopy(path: string): boolean {
  return /[\\/]uploads[\\/][0-9a-f]{32}[\\/][^\\/]+[\\/]?$/.test(path);
}
