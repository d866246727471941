/**
 * The bill workflow's histories (docs/bills.md, "Replay histories"), committed under histories/ and
 * replayed by billReplay.unit.test.ts. Each names what its recorded run must show, so a history
 * recorded down another path fails the test: `result` (the status the run ended with), the updates
 * it took and the activities it scheduled (each at least as often as named).
 * scripts/replay/recordBillHistories.test.ts writes them
 * (npm run replay:record -- scripts/replay/recordBillHistories.test.ts).
 */
export interface BillReplayPath {
  result: string;
  updates: string[];
  activities: string[];
}

export const BILL_REPLAY_PATHS = {
  // two card tenders paid on two terminals, then cash for the rest: PAID, one BILL_PAID
  'bill-paid': { result: 'PAID', updates: ['openTender', 'openTender', 'recordTillTender'], activities: ['readTender', 'publishBillEvent'] },
  // a captured card tender and cash, cancelled: the card voided, the cash listed to hand back; CANCELLED, one BILL_CANCELLED
  'bill-cancelled': {
    result: 'CANCELLED',
    updates: ['openTender', 'recordTillTender', 'cancelBill'],
    activities: ['readTender', 'giveBackTender', 'publishBillEvent'],
  },
  // a captured card tender, the bill left OPEN until its expiresAt: given back by the service, EXPIRED, one BILL_EXPIRED
  'bill-expired': { result: 'EXPIRED', updates: ['openTender'], activities: ['readTender', 'giveBackTender', 'publishBillEvent'] },
} satisfies Record<string, BillReplayPath>;

export type BillReplayPathName = keyof typeof BILL_REPLAY_PATHS;
export const BILL_REPLAY_PATH_NAMES = Object.keys(BILL_REPLAY_PATHS) as BillReplayPathName[];
