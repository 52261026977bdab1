// The one way the web application talks to the hub: JSON over fetch, the
// session cookie sent by the browser, x-project-id on project-scoped routes,
// and every non-2xx answer turned into an ApiError carrying the hub's
// {error, code, issues}.

export interface Issue {
  path: string;
  message: string;
  code: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly issues: Issue[];
  readonly retryAfter: number | null;

  constructor(status: number, message: string, code = "", issues: Issue[] = [], retryAfter: number | null = null) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.issues = issues;
    this.retryAfter = retryAfter;
  }
}

type Listener = (err: ApiError) => void;
const unauthorizedListeners = new Set<Listener>();

/** Called whenever the hub answers 401 (the session ended). */
export function onUnauthorized(fn: Listener): () => void {
  unauthorizedListeners.add(fn);
  return () => unauthorizedListeners.delete(fn);
}

export interface RequestOptions {
  /** Extra headers, e.g. If-Match. */
  headers?: Record<string, string>;
  /** Raw body (a file's text, or a file); sent as is with content-type application/json, or contentType. */
  rawBody?: string | Blob;
  /** The content type of rawBody when it is not JSON, e.g. text/csv. */
  contentType?: string;
  signal?: AbortSignal;
  /**
   * The project a list or create route acts on, sent as x-project-id. Only
   * the hub's project-scoped routes (headerProject) take it; every other call
   * leaves it out.
   */
  project?: string;
}

/**
 * Options for a call on one record (/api/tests/:id, /api/runs/:id ...). The
 * hub takes such a record's own project and refuses it when x-project-id
 * names another one, so these calls send no header: a link to a record of
 * another of the caller's projects (the profile's runs, a shared link) opens.
 */
export const recordCall: RequestOptions = {};

/** Options for a list or create route of the given project. */
export function inProject(projectId: string, opts: RequestOptions = {}): RequestOptions {
  return { ...opts, project: projectId };
}

export interface ApiResponse<T> {
  status: number;
  data: T;
  headers: Headers;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function toIssues(v: unknown): Issue[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isRecord).map((i) => ({
    path: typeof i.path === "string" ? i.path : "",
    message: typeof i.message === "string" ? i.message : "",
    code: typeof i.code === "string" ? i.code : "",
  }));
}

/** request sends one call and answers the status, decoded body and headers. */
export async function request<T>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { Accept: "application/json", ...opts.headers };
  if (opts.project) headers["x-project-id"] = opts.project;
  let payload: string | Blob | undefined;
  if (opts.rawBody !== undefined) payload = opts.rawBody;
  else if (body !== undefined) payload = JSON.stringify(body);
  if (payload !== undefined) headers["Content-Type"] = opts.contentType ?? "application/json";

  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: payload, credentials: "same-origin", signal: opts.signal });
  } catch (e) {
    if (e instanceof DOMException && e.name === "AbortError") throw e;
    throw new ApiError(0, "The hub cannot be reached. Check that it is running and try again.", "network");
  }
  const text = res.status === 204 ? "" : await res.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!res.ok) {
    const msg = isRecord(data) && typeof data.error === "string" ? data.error : `${res.status} ${res.statusText}`;
    const code = isRecord(data) && typeof data.code === "string" ? data.code : "";
    const issues = isRecord(data) ? toIssues(data.issues) : [];
    const ra = res.headers.get("Retry-After");
    const err = new ApiError(res.status, msg, code, issues, ra ? Number(ra) : null);
    if (res.status === 401 && code !== "invalid_credentials") unauthorizedListeners.forEach((fn) => fn(err));
    throw err;
  }
  return { status: res.status, data: data as T, headers: res.headers };
}

export async function get<T>(path: string, opts?: RequestOptions): Promise<T> {
  return (await request<T>("GET", path, undefined, opts)).data;
}
export async function post<T>(path: string, body?: unknown, opts?: RequestOptions): Promise<T> {
  return (await request<T>("POST", path, body ?? {}, opts)).data;
}
export async function put<T>(path: string, body?: unknown, opts?: RequestOptions): Promise<T> {
  return (await request<T>("PUT", path, body ?? {}, opts)).data;
}
export async function del<T = null>(path: string, opts?: RequestOptions): Promise<T> {
  return (await request<T>("DELETE", path, undefined, opts)).data;
}

/** Build a query string from the defined, non-empty values. */
export function query(params: Record<string, string | number | boolean | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === "") continue;
    q.set(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : "";
}

/**
 * describeError says what went wrong in words a tester understands: a 403
 * names what the role lacks, a 404 says the record is gone or not visible.
 */
export function describeError(err: unknown, role?: string | null): string {
  if (err instanceof ApiError) {
    switch (err.status) {
      case 0:
        return err.message;
      case 401:
        // A wrong password is a 401 too, with its own code and words.
        return err.code === "invalid_credentials" ? err.message : "Your session has ended. Sign in again.";
      case 403:
        return `Not allowed: ${err.message}${role && !err.message.includes(role) ? ` (your role here is ${role})` : ""}`;
      case 404:
        return "Not found: it was deleted, or it is not visible to you (private tests are visible only to their owner).";
      case 429:
        return err.retryAfter ? `${err.message} Try again in ${Math.ceil(err.retryAfter / 60)} minute(s).` : err.message;
      default:
        return err.message;
    }
  }
  if (err instanceof Error) return err.message;
  return String(err);
}
