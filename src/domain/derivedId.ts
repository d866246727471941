import crypto from 'node:crypto';

/**
 * An id derived from the acquirer's (a dispute's, a payout's) with the key of whose ids they are:
 * a notification that arrives twice, or in two API processes at once, names the same record, so
 * both reach its one workflow. UUID-shaped (version 8, RFC 9562's custom layout) from SHA-256.
 */
export function derivedUuid(...parts: string[]): string {
  const b = crypto.createHash('sha256').update(parts.join('\u0000')).digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x80;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
