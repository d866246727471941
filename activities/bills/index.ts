import { giveBackTender } from '../../src/bills/giveBack';
import { publishBillEvent } from '../../src/bills/events';
import { readTender, recordBill } from '../../src/bills/store';
import type { BillActivities } from '../../core/bill/messages';
import type { ActivityDeps } from '../deps';
import { whileHeartbeating } from '../heartbeat';

/**
 * The bill workflow's side effects (docs/bills.md): its row and tenders, the reads of its tenders'
 * payment rows, each give-back step through the payment's own operations, and its events. Each is
 * safe to repeat (see each function).
 */
export function billActivities(deps: ActivityDeps): BillActivities {
  return {
    recordBill: ({ billId, state }) => recordBill(deps.db, billId, state),
    readTender: ({ billId, paymentId }) => readTender(deps.db, billId, paymentId),
    // It waits for the acquirer to confirm the reversal: it heartbeats, so a dead worker's attempt is retried within seconds.
    giveBackTender: ({ billId, paymentId, step }) => whileHeartbeating(() => giveBackTender(deps, billId, paymentId, step)),
    publishBillEvent: async ({ billId, eventType, state }) => {
      await publishBillEvent(deps, billId, eventType, state);
    },
  };
}
