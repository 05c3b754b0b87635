// Browser mode: a dropped folder has no path, so its files are uploaded into a
// session-owned copy (POST /api/uploads, chunks as JSON, then a session).
// Chunks stay well under the sidecar's 1 MiB JSON body limit once base64-encoded.
import type { Api, SessionDetail } from "./client";

export const CHUNK = 512 * 1024;

/** Files of the drop that the browser could not read (no permission, gone, a broken link). */
export class UnreadableFiles extends Error {
  constructor(readonly names: string[]) {
    super(`unreadable: ${names.join(", ")}`);
  }
}

export interface PickedFile {
  path: string; // relative, "/"-separated, from the dropped folder's root
  file: Blob;
}

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Strip the dropped folder's own name when every path starts with it. */
export function commonRoot(paths: readonly string[]): { title: string; strip: number } {
  const first = paths[0]?.split("/")[0] ?? "";
  const shared = first !== "" && paths.every((p) => p.split("/").length > 1 && p.split("/")[0] === first);
  return shared ? { title: first, strip: first.length + 1 } : { title: "", strip: 0 };
}

export async function uploadFolder(
  api: Api,
  files: readonly PickedFile[],
  onProgress: (done: number, total: number) => void,
  language: "" | "en" | "zh" = "",
): Promise<SessionDetail> {
  const { title, strip } = commonRoot(files.map((f) => f.path));
  const total = files.reduce((n, f) => n + f.file.size, 0);
  const upload = await api.send<{ id: string }>("POST", "/uploads", {
    name: title,
    file_count: files.length,
    total_size: total,
  });
  let done = 0;
  for (const f of files) {
    const path = f.path.slice(strip);
    let offset = 0;
    do {
      let part: Uint8Array;
      try {
        part = new Uint8Array(await f.file.slice(offset, offset + CHUNK).arrayBuffer());
      } catch {
        // Nothing half-made is left behind: the unfinished copy is dropped.
        await api.send("DELETE", `/uploads/${upload.id}`).catch(() => undefined);
        throw new UnreadableFiles([path]);
      }
      await api.send("POST", `/uploads/${upload.id}/chunks`, { path, offset, data: base64(part) });
      offset += part.length;
    } while (offset < f.file.size);
    done += 1;
    onProgress(done, files.length);
  }
  return api.send<SessionDetail>("POST", `/uploads/${upload.id}/session`, { title, language });
}

/** Files of a drop, with their relative paths (directory entries walked recursively). */
export async function filesFromDrop(items: DataTransferItemList): Promise<PickedFile[]> {
  const entries: FileSystemEntry[] = [];
  for (const item of Array.from(items)) {
    const entry = item.webkitGetAsEntry?.();
    if (entry) entries.push(entry);
  }
  const out: PickedFile[] = [];
  const unreadable: string[] = [];
  const walk = async (entry: FileSystemEntry, prefix: string): Promise<void> => {
    if (entry.isFile) {
      try {
        const file = await new Promise<File>((res, rej) => (entry as FileSystemFileEntry).file(res, rej));
        out.push({ path: prefix + entry.name, file });
      } catch {
        unreadable.push(prefix + entry.name);
      }
    } else if (entry.isDirectory) {
      const reader = (entry as FileSystemDirectoryEntry).createReader();
      for (;;) {
        let batch: FileSystemEntry[];
        try {
          batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
        } catch {
          unreadable.push(prefix + entry.name + "/");
          break;
        }
        if (batch.length === 0) break;
        for (const child of batch) await walk(child, `${prefix}${entry.name}/`);
      }
    }
  };
  for (const e of entries) await walk(e, "");
  if (unreadable.length) throw new UnreadableFiles(unreadable);
  return out;
}

export function filesFromInput(list: FileList): PickedFile[] {
  return Array.from(list).map((file) => ({ path: file.webkitRelativePath || file.name, file }));
}
