import type { DashboardBillDetail } from '@in-store-payments/client';
import { GIVE_BACK_HEADLINES, OUTCOME_WORDS, STEP_WORDS } from '../../bills/words';
import { money } from '../ui';
import { TenderLabel } from './TenderLabel';

/**
 * A bill cancelled or expired, given back step by step (docs/bills.md, "Giving a bill back"): per
 * tender in sequence order what was done (voided, refunded, released, cancelled, cash to return at
 * the till), or what the service is still doing while the bill is CANCELLING.
 */
export function GiveBackSteps({ bill }: { bill: Pick<DashboardBillDetail, 'status' | 'tenders' | 'currency'> }) {
  return (
    <>
      <h2>Give-back</h2>
      <p className="note">{GIVE_BACK_HEADLINES[bill.status]}</p>
      <ol className="timeline" aria-label="Give-back">
        {bill.tenders.map((t) => (
          <li key={t.sequenceNumber}>
            <TenderLabel tender={t} /> · {money(t.amount, bill.currency)}:{' '}
            {t.givenBack ? (
              <strong>{OUTCOME_WORDS[t.givenBack]}</strong>
            ) : (
              <span className="pending">{t.giveBackStep ? STEP_WORDS[t.giveBackStep] : 'waiting'}</span>
            )}
          </li>
        ))}
      </ol>
    </>
  );
}
