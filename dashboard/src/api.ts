/**
 * The dashboard's only way to the API: same origin, the session token in the Authorization header
 * (never in a URL), errors in the API's error shape turned into ApiError. A 401 on a signed-in
 * call means the session ended: the app returns to sign-in.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const TOKEN_KEY = 'isp.dashboard.session';
let onSessionEnded: () => void = () => {};
/** Set when the API ended the session (a 401), so the sign-in page can say why it is shown. */
let endedByApi = false;
export const takeSessionEndedNotice = (): boolean => {
  const was = endedByApi;
  endedByApi = false;
  return was;
};

export const sessionToken = (): string | null => sessionStorage.getItem(TOKEN_KEY);
export const setSessionToken = (token: string | null): void => {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
};
export const whenSessionEnds = (fn: () => void): void => {
  onSessionEnded = fn;
};

export interface RequestOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Sign-in itself: a 401 there is a wrong password, not an ended session. */
  anonymous?: boolean;
}

async function send(path: string, opts: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  const token = sessionToken();
  if (token && !opts.anonymous) headers.Authorization = `Bearer ${token}`;
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, { method: opts.method ?? 'GET', headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  if (res.ok) return res;
  let message = res.statusText;
  try {
    const body = (await res.json()) as { message?: string };
    if (body.message) message = body.message;
  } catch {
    // not JSON: keep the status text
  }
  if (res.status === 401 && !opts.anonymous) {
    endedByApi = true;
    setSessionToken(null);
    onSessionEnded();
  }
  throw new ApiError(res.status, message);
}

export async function api<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const res = await send(path, opts);
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

/** A text download (CSV) fetched with the session token, then saved by the browser. */
export async function download(path: string, filename: string): Promise<void> {
  const res = await send(path, { headers: { Accept: 'text/csv' } });
  saveText(await res.text(), filename);
}

export function saveText(text: string, filename: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}

/** The paged shape of contracts 2, as the server declares it. */
export type { Page } from '../../src/domain/paging';

/** Query string from the set values only. */
export function qs(params: Record<string, string | number | boolean | undefined | null>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') u.set(k, String(v));
  const s = u.toString();
  return s ? `?${s}` : '';
}
