import crypto from 'node:crypto';

/**
 * Whose dispute ids an acquirer's ids are: the payment's acquirer account, or the installation's
 * acquirer by name. (acquirerKey, acquirerDisputeId) is unique (migration 0020).
 */
export const acquirerKeyOf = (payment: { acquirerAccountId: string | null; acquirerName: string }): string =>
  payment.acquirerAccountId ?? `installation:${payment.acquirerName}`;

/**
 * Our dispute id, derived from the acquirer's: a notification that arrives twice (or in two API
 * processes at once) names the same dispute, so both reach the one workflow `dispute-<id>`.
 * UUID-shaped (version 8, RFC 9562's custom layout) from SHA-256.
 */
export function disputeIdOf(acquirerKey: string, acquirerDisputeId: string): string {
  const b = crypto.createHash('sha256').update(`dispute\u0000${acquirerKey}\u0000${acquirerDisputeId}`).digest().subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x80;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
