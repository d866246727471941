import type { PaymentStatus } from '../payment/statuses';

/**
 * A bill's statuses and its tenders' words (docs/bills.md). Pure definitions shared by the bill
 * workflow, the API and the dashboard. A bill is the till's bill: one amount the customer owes,
 * paid by one or more tenders (card or QR payments, and cash or other tenders the till took).
 */
export const BILL_STATUSES = ['OPEN', 'PAID', 'CANCELLING', 'CANCELLED', 'EXPIRED'] as const;
export type BillStatus = (typeof BILL_STATUSES)[number];
export const FINAL_BILL_STATUSES: readonly BillStatus[] = ['PAID', 'CANCELLED', 'EXPIRED'];
export const isBillFinal = (s: string): boolean => (FINAL_BILL_STATUSES as readonly string[]).includes(s);

export const TENDER_METHODS = ['CARD', 'QR_CODE', 'CASH', 'OTHER'] as const;
export type TenderMethod = (typeof TENDER_METHODS)[number];
/** Tenders the till took itself: the service records them and cannot give them back. */
export const TILL_TENDER_METHODS = ['CASH', 'OTHER'] as const;
export type TillTenderMethod = (typeof TILL_TENDER_METHODS)[number];

/** A till tender's status: received at the till when it was recorded. */
export const TILL_TENDER_STATUS = 'RECEIVED';
export type TenderStatus = PaymentStatus | typeof TILL_TENDER_STATUS;

/** A card or QR tender still on its way: what it asks is held from the bill's remainder meanwhile. */
export const HOLDING_TENDER_STATUSES: readonly TenderStatus[] = ['CREATED', 'AWAITING_TERMINAL'];
/** A tender whose money the bill has: authorised, captured (and since refunded in part or settled), or received at the till. */
export const PAID_TENDER_STATUSES: readonly TenderStatus[] = ['AUTHORIZED', 'CAPTURED', 'PARTIALLY_REFUNDED', 'SETTLED', TILL_TENDER_STATUS];

/** How a tender still holding money is given back when the bill is cancelled or expires. */
export type GiveBackStep = 'CANCEL' | 'RELEASE' | 'VOID_OR_REFUND' | 'REFUND_REST' | 'RETURN_AT_TILL';

/** The step a tender in this status needs, or null when nothing of it is left to give back. */
export function giveBackStepOf(status: TenderStatus): GiveBackStep | null {
  switch (status) {
    case 'CREATED':
    case 'AWAITING_TERMINAL':
      return 'CANCEL';
    case 'AUTHORIZED':
      return 'RELEASE';
    case 'CAPTURED':
      return 'VOID_OR_REFUND'; // a void inside the void window, a refund in full after it
    case 'PARTIALLY_REFUNDED':
    case 'SETTLED':
      return 'REFUND_REST';
    case TILL_TENDER_STATUS:
      return 'RETURN_AT_TILL';
    default:
      return null; // refused, cancelled, expired, failed, errored or refunded: nothing was taken or all came back
  }
}
