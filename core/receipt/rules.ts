/**
 * Whether a payment has a receipt (docs/receipts.md): once the card was charged or authorised. A
 * void or a release keeps it (the receipt then says the money went back). Pure: the API answers
 * 409 without one, and the dashboard asks for a receipt only where there is one.
 */
const WITH_RECEIPT = ['AUTHORIZED', 'CAPTURED', 'PARTIALLY_REFUNDED', 'REFUNDED', 'SETTLED'];

export function hasReceipt(p: { status: string; previousStatus: string | null; capturedAt: unknown }): boolean {
  if (WITH_RECEIPT.includes(p.status)) return true;
  if (p.status === 'CANCELLED' && (p.previousStatus === 'CAPTURED' || p.previousStatus === 'AUTHORIZED')) return true;
  return p.capturedAt !== null && p.capturedAt !== undefined;
}
