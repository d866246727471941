import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed notifications from the sandbox to the service, as cloud acquirers send them. The header
 * X-Sandbox-Signature reads `t=<unix seconds>,v1=<base64 HMAC-SHA256 of "<t>.<raw body>">` with
 * the shared secret (Stripe's scheme): the time is inside the signature, so a captured
 * notification cannot be replayed once it is older than the receiver's tolerance. The service
 * must treat a notification only as a nudge to re-read the acquirer.
 */
export const SIGNATURE_HEADER = 'X-Sandbox-Signature';

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

const hmac = (rawBody: Buffer | string, secret: string, t: number): string => createHmac('sha256', secret).update(`${t}.`).update(rawBody).digest('base64');

/** The header value for a body sent at time t (unix seconds; now by default). */
export function signSandboxBody(rawBody: Buffer | string, secret: string, t: number = nowSeconds()): string {
  return `t=${t},v1=${hmac(rawBody, secret, t)}`;
}

export type SignatureCheck = 'valid' | 'invalid' | 'stale';

/**
 * Constant-time check of a notification's signature: 'invalid' for a missing, malformed or wrong
 * one, 'stale' for a genuine one whose time is more than toleranceSeconds from now (either way).
 */
export function verifySandboxSignature(
  rawBody: Buffer | string,
  header: string | undefined,
  secret: string | undefined,
  toleranceSeconds: number,
  now: number = nowSeconds(),
): SignatureCheck {
  if (!header || !secret) return 'invalid';
  const parts = new Map<string, string>();
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq > 0) parts.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  const tText = parts.get('t') ?? '';
  const given = Buffer.from(parts.get('v1') ?? '', 'utf8');
  if (!/^\d{1,12}$/.test(tText)) return 'invalid';
  const t = Number(tText);
  const expected = Buffer.from(hmac(rawBody, secret, t), 'utf8');
  // timingSafeEqual needs equal lengths; a length mismatch reveals nothing about the secret.
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return Math.abs(now - t) <= toleranceSeconds ? 'valid' : 'stale';
}

export interface NotifyLogger {
  warn: (...args: unknown[]) => void;
}

/** Where notifications go: a URL, or a function for one known only later (a test's API on port 0). */
export type NotifyTarget = string | undefined | (() => string | undefined);

/**
 * Posts notifications fire-and-forget with a short timeout; never throws. drain() waits for the
 * ones still in flight (used on close so nothing outlives the server).
 */
export function createNotifier(target: NotifyTarget, secret: string, logger: NotifyLogger, timeoutMs = 2000) {
  const inFlight = new Set<Promise<void>>();
  return {
    send(payload: object): void {
      const url = typeof target === 'function' ? target() : target;
      if (!url) return;
      const body = JSON.stringify(payload);
      const p = fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signSandboxBody(body, secret) },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      })
        .then(async (res) => {
          await res.arrayBuffer().catch(() => undefined); // release the connection
          if (!res.ok) logger.warn({ url, status: res.status }, 'sandbox notification not accepted');
        })
        .catch((err: unknown) => logger.warn({ url, err: (err as Error)?.message }, 'sandbox notification failed'))
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    },
    async drain(): Promise<void> {
      await Promise.allSettled([...inFlight]);
    },
  };
}
