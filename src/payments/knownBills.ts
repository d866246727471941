import { LRUCache } from 'lru-cache';
import type { AcquirerOfRecord } from '../acquirer/resolver';

/** Which acquirer took a bill: fixed when the payment is created, so never stale (docs/acquirers.md). */
export interface KnownBill extends AcquirerOfRecord {
  paymentId: string;
}

/**
 * The bills this API process placed, by device and acquirer reference: the acquirer's notification
 * about one usually comes back to the process that created it, which then knows whom to ask
 * before reading the payment, so the payment is read and the nudge claimed in one statement
 * (src/payments/acquirerNotification.ts). A miss (another process, a restart, evicted) reads as
 * before. Bounded: the least recently used goes first.
 */
const bills = new LRUCache<string, KnownBill>({ max: 10_000 });

const keyOf = (deviceId: string, acquirerRef: string): string => `${deviceId}\u0000${acquirerRef}`;

export function rememberBill(payment: {
  id: string;
  deviceId: string | null;
  acquirerRef: string | null;
  acquirerName: string | null;
  acquirerAccountId: string | null;
}): void {
  if (!payment.deviceId || !payment.acquirerRef) return;
  bills.set(keyOf(payment.deviceId, payment.acquirerRef), {
    paymentId: payment.id,
    acquirerName: payment.acquirerName,
    acquirerAccountId: payment.acquirerAccountId,
  });
}

export function knownBill(deviceId: string, acquirerRef: string): KnownBill | undefined {
  return bills.get(keyOf(deviceId, acquirerRef));
}

/** Forgets every bill, as a process that placed none of them (a test of the ordinary read). */
export function forgetKnownBills(): void {
  bills.clear();
}
