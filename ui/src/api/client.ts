// A thin typed client: bearer header on every call, errors as one sentence.
import type { components } from "./schema";
import type { Conn } from "./conn";

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
  ) {
    super(message);
  }
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
  constructor(readonly conn: Conn) {}

  url(path: string): string {
    return `${this.conn.base}/api${path}`;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { Authorization: `Bearer ${this.conn.token}`, ...extra };
  }

  async raw(path: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(this.url(path), {
      ...init,
      headers: this.headers((init.headers as Record<string, string>) ?? {}),
    });
    if (!res.ok) throw await failure(res);
    return res;
  }

  async get<T>(path: string): Promise<T> {
    return (await this.raw(path)).json() as Promise<T>;
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
    return (await this.raw(path)).arrayBuffer();
  }
}
