import type { ApiKeyPrincipal } from '../auth/principal';
import { conflict, invalid } from '../domain/errors';
import { openTenderUpdate } from '../../core/bill/messages';
import type { BillTender } from '../../core/bill/tenders';
import { findOwnBill } from './bills';
import { askBill, type BillCallDeps, nudgeBill } from './workflowCalls';
import type { Db } from '../db/client';

/** What a card or QR tender asks of its bill before its payment is created. */
export interface TenderAsk {
  paymentId: string;
  amount: string; // exact decimal text
  currency: string;
  storeExternalId: string;
  sequenceNumber?: number;
}

/**
 * Holds a tender's amount on its bill (docs/bills.md): the bill's workflow decides, one tender at
 * a time, so two tills cannot over-pay one bill. Another business's bill: 404; another currency or
 * store: 400 naming the field; more than is left: 400 naming amount; a sequence number taken or a
 * bill not OPEN: 409. Answers the tender with its sequence number.
 */
export async function holdTender(deps: BillCallDeps & { db: Db }, principal: ApiKeyPrincipal, billId: string, ask: TenderAsk): Promise<BillTender> {
  const bill = await findOwnBill(deps.db, principal, billId);
  if (ask.currency !== bill.currency) throw invalid(`currency: must be the bill's currency ${bill.currency}`);
  if (ask.storeExternalId !== bill.storeExternalId) throw invalid(`storeExternalId: must be the bill's store ${bill.storeExternalId}`);
  if (bill.status !== 'OPEN') throw conflict(`billId: the bill is ${bill.status}, not OPEN`);
  const tender = await askBill(deps, billId, (h, updateId) =>
    h.executeUpdate(openTenderUpdate, {
      updateId,
      args: [{ paymentId: ask.paymentId, amount: ask.amount, ...(ask.sequenceNumber !== undefined ? { sequenceNumber: ask.sequenceNumber } : {}) }],
    }),
  );
  if (!tender) throw conflict(`billId: the bill is ${(await findOwnBill(deps.db, principal, billId)).status}, not OPEN`);
  return tender;
}

/** After a tender's creation, whatever became of it: the bill reads the payment's row (none: its hold is freed). */
export async function tenderCreated(
  deps: BillCallDeps & { logger: { warn: (o: object, m: string) => void } },
  billId: string,
  paymentId: string,
): Promise<void> {
  try {
    await nudgeBill(deps, billId, paymentId);
  } catch (err) {
    // The payment's own workflow nudges the bill at its next status; the bill's expiry frees a hold left behind.
    deps.logger.warn({ err, billId, paymentId }, 'bill could not be told of its tender');
  }
}
