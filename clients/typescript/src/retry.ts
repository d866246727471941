/**
 * Retries of the operations the API says are safe to repeat (docs/payments.md, "Rules and decisions";
 * docs/refunds.md, "Rules"): payment creation
 * (the same body, so the same reference: an open payment with it is returned, never duplicated), a
 * refund carrying an Idempotency-Key (one is added when the caller gave none, so every attempt
 * carries the same key), and sync-status (a read of the acquirer). Nothing else is retried: a
 * capture, cancel or void sent twice is two actions.
 */
export interface RetryPolicy {
  /** Attempts in all, the first included (default 3; 1 turns retries off). */
  attempts?: number;
  /** Wait before the first retry, doubled for each next one (default 250 ms). */
  baseDelayMs?: number;
  /** The longest wait, including a 429's Retry-After (default 10 s; a longer Retry-After is not waited for). */
  maxDelayMs?: number;
}

const SAFE = [/\/api\/in-store\/payments$/, /\/api\/in-store\/payments\/[^/]+\/sync-status$/];
const REFUND = /\/api\/dashboard\/payments\/[^/]+\/refunds$/;
/** Temporary answers (retry with backoff); 429 only after its Retry-After. */
const RETRY_STATUSES = new Set([429, 502, 503, 504]);

export function isSafeToRetry(request: Request): boolean {
  if (request.method !== 'POST') return false;
  const path = new URL(request.url).pathname;
  if (SAFE.some((re) => re.test(path))) return true;
  return REFUND.test(path) && request.headers.has('Idempotency-Key');
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A 429's Retry-After in milliseconds (whole seconds), or null when absent. */
function retryAfterMs(res: Response): number | null {
  const s = Number(res.headers.get('Retry-After'));
  return res.headers.has('Retry-After') && Number.isFinite(s) && s >= 0 ? s * 1000 : null;
}

/** `fetch` that repeats the safe operations on a network failure or a temporary answer. */
export function retryingFetch(policy: RetryPolicy = {}, fetchImpl: typeof fetch = (...a) => globalThis.fetch(...a)): typeof fetch {
  const attempts = Math.max(1, policy.attempts ?? 3);
  const base = policy.baseDelayMs ?? 250;
  const max = policy.maxDelayMs ?? 10_000;
  return async (input, init) => {
    let request = new Request(input, init);
    if (request.method === 'POST' && REFUND.test(new URL(request.url).pathname) && !request.headers.has('Idempotency-Key')) {
      const headers = new Headers(request.headers);
      headers.set('Idempotency-Key', globalThis.crypto.randomUUID());
      request = new Request(request, { headers });
    }
    if (attempts === 1 || !isSafeToRetry(request)) return fetchImpl(request);
    for (let attempt = 1; ; attempt++) {
      const last = attempt === attempts;
      const backoff = Math.min(max, base * 2 ** (attempt - 1));
      let res: Response;
      try {
        // A clone per attempt: a body can be read once.
        res = await fetchImpl(last ? request : request.clone());
      } catch (err) {
        // A caller's abort is not a network failure.
        if (last || request.signal.aborted || (err as Error)?.name === 'AbortError') throw err;
        await sleep(backoff);
        continue;
      }
      if (last || !RETRY_STATUSES.has(res.status)) return res;
      const wait = res.status === 429 ? retryAfterMs(res) : backoff;
      if (wait === null || wait > max) return res;
      // Free the connection; not awaited (a tee'd body's cancel waits for its other branch).
      res.body?.cancel().catch(() => {});
      await sleep(wait);
    }
  };
}
