import type { Db } from '../db/client';
import { toHistoryEntry } from '../payments/record';

/**
 * `evidence.transaction` (docs/disputes.md, "The evidence"): what the merchant would otherwise dig out by hand,
 * assembled from the service's own records when the dispute opens, never typed by a user.
 * Amounts are exact decimal strings, times ISO 8601 UTC.
 */
export interface EvidenceTransaction {
  pspReference: string;
  reference: string | null;
  amount: string;
  currency: string;
  capturedAt: string | null;
  paymentMethod: string | null;
  cardBrand: string | null;
  last4: string | null;
  storeName: string | null;
  storeAddress: { addressLine1: string | null; city: string | null; postalCode: string | null; country: string } | null;
  terminalExternalId: string;
  terminalSerialNumber: string | null;
  cashierId: string | null;
  statusHistory: ReturnType<typeof toHistoryEntry>[];
  refunds: { id: string; amount: string; status: string; reason: string | null; createdAt: string; decidedAt: string | null }[];
}

export async function assembleEvidenceTransaction(db: Db, paymentId: string): Promise<EvidenceTransaction> {
  const p = await db.payment.findUniqueOrThrow({
    where: { id: paymentId },
    include: {
      store: true,
      terminal: true,
      history: { orderBy: { sequence: 'asc' } },
      refunds: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
    },
  });
  return {
    pspReference: p.pspReference,
    reference: p.reference,
    amount: (p.capturedAmount ?? p.amount).toFixed(),
    currency: p.currency,
    capturedAt: p.capturedAt?.toISOString() ?? null,
    paymentMethod: p.paymentMethod,
    cardBrand: p.cardBrand,
    last4: p.last4,
    storeName: p.store?.name ?? null,
    storeAddress: p.store ? { addressLine1: p.store.addressLine1, city: p.store.city, postalCode: p.store.postalCode, country: p.store.country } : null,
    terminalExternalId: p.terminalExternalId,
    terminalSerialNumber: p.terminal?.serialNumber ?? null,
    cashierId: p.cashierId,
    statusHistory: p.history.map(toHistoryEntry),
    refunds: p.refunds.map((r) => ({
      id: r.id,
      amount: r.amount.toFixed(),
      status: r.status,
      reason: r.reason,
      createdAt: r.createdAt.toISOString(),
      decidedAt: r.decidedAt?.toISOString() ?? null,
    })),
  };
}
