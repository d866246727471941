import crypto from 'node:crypto';

/**
 * Webhook signatures (docs/webhooks.md, "Verifying a delivery: the helper"): Base64 of HMAC-SHA256 over the exact bytes of the request body,
 * keyed with the destination's signing secret. No Node imports beyond crypto, so receivers can
 * use the helper through the package's public entry point (src/index.ts).
 */
export function signWebhookBody(rawBody: Buffer | string, secret: string): string {
  return crypto.createHmac('sha256', secret).update(rawBody).digest('base64');
}

/** Base64 of a 32-byte digest: 43 characters and one padding '='. */
const SIGNATURE_SHAPE = /^[A-Za-z0-9+/]{43}=$/;

/**
 * For receivers: true when `signatureHeader` (the X-Webhook-Signature value) is the signature of
 * `rawBody` under `secret`. Pass the raw body bytes exactly as received, before any JSON parsing.
 * The comparison is constant-time; any malformed input (missing header, wrong length, empty
 * secret, a body that is neither Buffer nor string) is simply false, never an exception.
 */
export function verifyWebhookSignature(rawBody: Buffer | string, signatureHeader: string | undefined, secret: string): boolean {
  try {
    if (typeof signatureHeader !== 'string' || typeof secret !== 'string' || secret.length === 0) return false;
    if (!Buffer.isBuffer(rawBody) && typeof rawBody !== 'string') return false;
    const presented = signatureHeader.trim();
    if (!SIGNATURE_SHAPE.test(presented)) return false;
    const expected = Buffer.from(signWebhookBody(rawBody, secret), 'ascii');
    const given = Buffer.from(presented, 'ascii');
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  } catch {
    return false;
  }
}
