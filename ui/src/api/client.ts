// A thin typed client: bearer header on every call, errors as one sentence.
import type { components } from "./schema";
import type { Conn } from "./conn";
import type { T } from "../i18n";
import { Liveness } from "./liveness";

export type Schemas = components["schemas"];
export type SessionOut = Schemas["SessionOut"];
export type SessionDetail = Schemas["SessionDetail"];
export type RunOut = Schemas["RunOut"];
export type RunEventOut = Schemas["RunEventOut"];
export type VersionSummary = Schemas["VersionSummary"];
export type VersionOut = Schemas["VersionOut"];
export type LLMSettingsOut = Schemas["LLMSettingsOut"];
export type LLMSettingsIn = Schemas["LLMSettingsIn"];
export type UsageOut = Schemas["UsageOut"];
export type DiagnosticsOut = Schemas["DiagnosticsOut"];
export type FigureOut = Schemas["FigureOut"];

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** "unreachable": no answer at all (the network or the engine is down). */
    readonly code: "http" | "unreachable" = "http",
  ) {
    super(message);
  }
}

/** One sentence for a failed call, in the interface language where the window knows it. */
export function errorText(t: T, err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code === "unreachable") return t("unreachable");
    if (err.message) return err.message;
  }
  return t("error");
}

async function failure(res: Response): Promise<ApiError> {
  let detail = "";
  try {
    const body: unknown = await res.json();
    if (body && typeof body === "object" && "detail" in body) {
      const d = (body as { detail: unknown }).detail;
      // FastAPI's own validation errors are a list; show their first message only.
      if (typeof d === "string") detail = d;
      else if (Array.isArray(d) && d[0] && typeof d[0] === "object" && "msg" in d[0]) {
        detail = String((d[0] as { msg: unknown }).msg);
      }
    }
  } catch {
    /* not JSON */
  }
  return new ApiError(res.status, detail);
}

export class Api {
  /** Whether the engine answers; shared by every call and stream of this connection. */
  readonly liveness: Liveness;

  constructor(readonly conn: Conn) {
    this.liveness = new Liveness({
      probe: async () => {
        // Any answer at all means the engine is there (even a 401 from a stale token).
        await fetch(this.url("/health"), { headers: this.headers(), cache: "no-store" });
        return true;
      },
    });
  }

  url(path: string): string {
    return `${this.conn.base}/api${path}`;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { Authorization: `Bearer ${this.conn.token}`, ...extra };
  }

  /**
   * One call. Without an answer (network cut, engine restarting) a read waits
   * until the engine answers again and is sent again, so the screen stays as
   * it is; a write is not repeated (it might have arrived) and fails with
   * `unreachable`.
   */
  async raw(path: string, init: RequestInit = {}): Promise<Response> {
    const read = (init.method ?? "GET").toUpperCase() === "GET";
    for (;;) {
      let res: Response;
      try {
        res = await fetch(this.url(path), {
          ...init,
          headers: this.headers((init.headers as Record<string, string>) ?? {}),
        });
      } catch (err) {
        if (init.signal?.aborted) throw err;
        this.liveness.failed();
        if (!read) throw new ApiError(0, "", "unreachable");
        await this.liveness.online(init.signal ?? undefined);
        continue;
      }
      this.liveness.answered();
      if (!res.ok) throw await failure(res);
      return res;
    }
  }

  /** A read whose body may also be cut off mid-way: then it waits and starts again. */
  private async read<R>(path: string, body: (res: Response) => Promise<R>): Promise<R> {
    for (;;) {
      const res = await this.raw(path);
      try {
        return await body(res);
      } catch (err) {
        if (!(err instanceof TypeError)) throw err; // a SyntaxError is a bad body, not a cut
        this.liveness.failed();
        await this.liveness.online();
      }
    }
  }

  async get<T>(path: string): Promise<T> {
    return this.read(path, (res) => res.json() as Promise<T>);
  }

  async send<T>(method: "POST" | "PUT" | "DELETE", path: string, body?: unknown): Promise<T> {
    const res = await this.raw(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status === 204) return undefined as T;
    return res.json() as Promise<T>;
  }

  async bytes(path: string): Promise<ArrayBuffer> {
    return this.read(path, (res) => res.arrayBuffer());
  }
}
