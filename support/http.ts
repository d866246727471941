/**
 * A small JSON client that never throws: a network failure (refused, reset, timed out) is status 0,
 * which is what a point-of-sale server sees when the service is down.
 */
export interface Answer<T = any> {
  status: number;
  body: T;
  error?: string;
}

export async function request<T = any>(
  method: string,
  url: string,
  opts: { key?: string; token?: string; body?: unknown; timeoutMs?: number; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers['X-API-Key'] = opts.key;
  if (opts.token) headers.Authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  try {
    const res = await fetch(url, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.timeout(opts.timeoutMs ?? 20_000),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: body as T };
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause;
    return { status: 0, body: undefined as T, error: cause?.code ?? (err as Error).name ?? String(err) };
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A random whole number in [min, max]. */
export const between = (min: number, max: number): number => min + Math.floor(Math.random() * (max - min + 1));
