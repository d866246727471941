/** A fetch that answers from a script and records each request (method, path, headers, body). */
export interface Seen {
  method: string;
  path: string;
  headers: Headers;
  body: string;
}

type Answer = Response | Error | (() => Response);

export function fakeFetch(...answers: Answer[]): { fetch: typeof fetch; seen: Seen[] } {
  const seen: Seen[] = [];
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    seen.push({ method: req.method, path: new URL(req.url).pathname, headers: req.headers, body: await req.text() });
    const next = answers.length > 1 ? answers.shift()! : answers[0];
    if (next instanceof Error) throw next;
    return typeof next === 'function' ? next() : next.clone();
  };
  return { fetch: fetchImpl as typeof fetch, seen };
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

export const errorBody = (status: number, error: string, message: string) => ({ timestamp: '2026-01-01T00:00:00.000Z', status, error, message });

/** What undici's fetch throws when the connection fails. */
export const networkError = (): Error => new TypeError('fetch failed');
