import { Agent, type Dispatcher, fetch, type Response } from 'undici';
import { checkWebhookUrl, guardedLookup, type ResolveHost, WebhookUrlRefused } from './urlPolicy';
import { signWebhookBody } from './signature';

/** What one delivery attempt produced; recorded as a WebhookAttempt row. */
export interface AttemptOutcome {
  requestedAt: Date;
  responseStatus: number | null;
  durationMs: number;
  error: string | null;
  /** The receiver's answer, first RESPONSE_BODY_LIMIT bytes. */
  responseBody: string | null;
  delivered: boolean;
  /** False when retrying cannot help (the URL itself breaks the rules). */
  retryable: boolean;
}

export const RESPONSE_BODY_LIMIT = 1024;

export interface SendInput {
  url: string;
  body: Buffer;
  eventId: string;
  eventType: string;
  /** The destination's current secret, read just before this attempt. */
  secret: string;
  timeoutMs: number;
  allowInsecure: boolean;
  /** The name service (default the system's); tests give one whose answer changes between calls. */
  resolve?: ResolveHost;
}

/**
 * Connections for deliveries under the URL rules: every address a name resolves to is checked
 * where the connection is made (guardedLookup), not only before. One shared pool; a delivery with
 * its own name service gets its own.
 */
let guarded: Agent | undefined;
const insecure = new Agent();
function dispatcherFor(input: SendInput): { dispatcher: Dispatcher; done: () => Promise<void> } {
  if (input.allowInsecure) return { dispatcher: insecure, done: async () => undefined };
  if (input.resolve) {
    const own = new Agent({ connect: { lookup: guardedLookup(input.resolve) } });
    return { dispatcher: own, done: () => own.close() };
  }
  guarded ??= new Agent({ connect: { lookup: guardedLookup() } });
  return { dispatcher: guarded, done: async () => undefined };
}

/** The headers of docs/webhooks.md, "What a delivery looks like", exactly. */
export function webhookHeaders(body: Buffer, secret: string, eventType: string, eventId: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'X-Webhook-Signature': signWebhookBody(body, secret),
    'X-Webhook-Event-Type': eventType,
    'X-Webhook-Event-Id': eventId,
  };
}

/** Reads at most `limit` bytes of the answer, then lets the rest go. */
async function readCapped(res: Response, limit: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (total < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      total += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  // PostgreSQL text cannot hold NUL characters.
  return Buffer.concat(chunks).subarray(0, limit).toString('utf8').replaceAll('\u0000', '');
}

function describeFetchError(err: unknown, timeoutMs: number): string {
  const e = err as Error & { cause?: Error & { code?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `timed out after ${timeoutMs / 1000} s`;
  const cause = e?.cause;
  if (cause?.message) return cause.message;
  return e?.message ?? String(err);
}

/**
 * One attempt: the URL rules again after name resolution (a name that now resolves to a private
 * address is refused and nothing is sent), then one POST of the exact bytes signed with the
 * current secret. Redirects are not followed: a 3xx is a failed attempt, so a redirect cannot
 * lead around the URL rules. Never throws; every outcome is described.
 */
export async function sendWebhook(input: SendInput): Promise<AttemptOutcome> {
  const requestedAt = new Date();
  const started = performance.now();
  const elapsed = (): number => Math.max(0, Math.round(performance.now() - started));
  try {
    await checkWebhookUrl(input.url, input.allowInsecure, input.resolve);
  } catch (err) {
    const refused = err instanceof WebhookUrlRefused;
    const message = refused ? `refused, not sent: url ${err.message}` : `refused, not sent: ${(err as Error).message}`;
    return {
      requestedAt,
      responseStatus: null,
      durationMs: elapsed(),
      error: message,
      responseBody: null,
      delivered: false,
      retryable: refused ? err.retryable : true,
    };
  }
  let res: Response;
  const signal = AbortSignal.timeout(input.timeoutMs);
  const { dispatcher, done } = dispatcherFor(input);
  try {
    res = await fetch(input.url, {
      method: 'POST',
      headers: webhookHeaders(input.body, input.secret, input.eventType, input.eventId),
      body: input.body,
      redirect: 'manual',
      signal,
      dispatcher,
    });
  } catch (err) {
    await done();
    return {
      requestedAt,
      responseStatus: null,
      durationMs: elapsed(),
      error: describeFetchError(err, input.timeoutMs),
      responseBody: null,
      delivered: false,
      retryable: true,
    };
  }
  let responseBody: string | null = null;
  try {
    responseBody = await readCapped(res, RESPONSE_BODY_LIMIT);
  } catch {
    // The status is what counts; a body that cannot be read in time is left out.
  } finally {
    await done();
  }
  const delivered = res.status >= 200 && res.status < 300;
  return {
    requestedAt,
    responseStatus: res.status,
    durationMs: elapsed(),
    error: delivered ? null : `receiver answered ${res.status}`,
    responseBody,
    delivered,
    retryable: true,
  };
}
