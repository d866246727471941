import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed notifications from the sandbox to the service, as cloud acquirers send them. The
 * signature is base64 HMAC-SHA256 of the raw body with the shared secret, in X-Sandbox-Signature.
 * The service must treat a notification only as a nudge to re-read the acquirer.
 */
export const SIGNATURE_HEADER = 'X-Sandbox-Signature';

export function signSandboxBody(rawBody: Buffer | string, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('base64');
}

/** Constant-time check of a notification's signature; false for a missing or malformed one. */
export function verifySandboxSignature(rawBody: Buffer | string, signature: string | undefined, secret: string): boolean {
  if (!signature) return false;
  const expected = Buffer.from(signSandboxBody(rawBody, secret), 'utf8');
  const given = Buffer.from(signature.trim(), 'utf8');
  // timingSafeEqual needs equal lengths; a length mismatch reveals nothing about the secret.
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface NotifyLogger {
  warn: (...args: unknown[]) => void;
}

/**
 * Posts notifications fire-and-forget with a short timeout; never throws. drain() waits for the
 * ones still in flight (used on close so nothing outlives the server).
 */
export function createNotifier(url: string | undefined, secret: string, logger: NotifyLogger, timeoutMs = 2000) {
  const inFlight = new Set<Promise<void>>();
  return {
    send(payload: object): void {
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
