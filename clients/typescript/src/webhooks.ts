/**
 * The service's webhook signature (docs/webhooks.md, src/webhooks/signature.ts): the
 * X-Webhook-Signature header is Base64 of HMAC-SHA256 over the exact body bytes, keyed with the
 * destination's secret. Web Crypto, so it runs in Node and in browsers alike; its verify compares
 * in constant time. The scheme signs no timestamp: a retry or redelivery resends the same bytes
 * (possibly days later), so an event's age is not a reason to refuse it; deduplicate on eventId.
 */
const SIGNATURE_SHAPE = /^[A-Za-z0-9+/]{43}=$/;

function base64ToBytes(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

/**
 * True when `signature` (the X-Webhook-Signature value) signs `rawBody` under `secret`. Pass the
 * body exactly as received, before any JSON parsing. Malformed input is false, never an exception.
 */
export async function verifyWebhook(rawBody: string | Uint8Array, signature: string | null | undefined, secret: string): Promise<boolean> {
  try {
    if (typeof signature !== 'string' || typeof secret !== 'string' || secret.length === 0) return false;
    if (typeof rawBody !== 'string' && !(rawBody instanceof Uint8Array)) return false;
    const presented = signature.trim();
    if (!SIGNATURE_SHAPE.test(presented)) return false;
    const encoder = new TextEncoder();
    const key = await globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : new Uint8Array(rawBody);
    return await globalThis.crypto.subtle.verify('HMAC', key, base64ToBytes(presented), body);
  } catch {
    return false;
  }
}
