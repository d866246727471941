import { StoreName } from '../components/Names';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { getDispute } from '@in-store-payments/client';
import { isDisputeOpen } from '../../../core/dispute/statuses';
import { DISPUTE_ANSWER_AREA } from '../areas';
import { DisputeAnswer } from '../components/disputes/DisputeAnswer';
import { DueTag } from '../components/disputes/DueTag';
import { EvidenceView } from '../components/disputes/EvidenceView';
import { ShownText } from '../components/disputes/ShownText';
import { ErrorNote, Field, money, Status, when } from '../components/ui';
import { useSession } from '../session';

/**
 * One dispute (docs/disputes.md): its fields, the evidence the service assembled, and the merchant's
 * statement. ADMIN and COMPLIANCE answer while it is NEEDS_RESPONSE; FINANCE (and everyone once it
 * is answered) reads the statement as text. Refreshes while the dispute is open, so a decision or
 * an expiry shows without a reload.
 */
export function DisputeDetail() {
  const { id = '' } = useParams();
  const { can } = useSession();
  const detail = useQuery({
    queryKey: ['dispute', id],
    queryFn: async () => (await getDispute({ path: { id } })).data,
    refetchInterval: (q) => (q.state.data && !isDisputeOpen(q.state.data.status) ? false : 5000),
  });

  if (detail.error) return <ErrorNote error={detail.error} />;
  const d = detail.data;
  if (!d) return <p>Loading…</p>;
  const answering = can(DISPUTE_ANSWER_AREA) && d.status === 'NEEDS_RESPONSE';

  return (
    <section>
      <p>
        <Link to="/disputes">← Disputes</Link>
      </p>
      <h1>
        Dispute {d.pspReference} <Status value={d.status} />
      </h1>
      <dl className="fields">
        <Field label="Payment">
          <Link to={`/payments/${d.paymentId}`}>{d.pspReference}</Link>
        </Field>
        <Field label="Reason">{d.reason}</Field>
        <Field label="Disputed amount">{money(d.amount, d.currency)}</Field>
        <Field label="Store">
          <StoreName id={d.storeExternalId} /> <code>{d.storeExternalId}</code>
        </Field>
        <Field label="Opened">{when(d.openedAt)}</Field>
        <Field label="Due by">
          <DueTag dispute={d} />
        </Field>
        <Field label="Submitted">{when(d.submittedAt)}</Field>
        <Field label="Closed">{when(d.closedAt)}</Field>
        <Field label="Acquirer's dispute id">
          <code>{d.acquirerDisputeId}</code>
        </Field>
        <Field label="Acquirer account">{d.acquirerAccountId ? <code>{d.acquirerAccountId}</code> : 'Installation default'}</Field>
        <Field label="Dispute id">
          <code>{d.id}</code>
        </Field>
      </dl>

      <h2>The merchant’s statement</h2>
      {answering ? (
        <DisputeAnswer key={d.id} dispute={d} />
      ) : (
        <>
          {d.evidence.text === null ? <p className="muted">No statement was written.</p> : <ShownText label="Statement" value={d.evidence.text} />}
          {d.status === 'NEEDS_RESPONSE' && (
            <p className="muted" role="note">
              Read only: ADMIN and COMPLIANCE answer disputes.
            </p>
          )}
        </>
      )}

      <h2>Evidence assembled from our records</h2>
      <EvidenceView transaction={d.evidence.transaction} />
    </section>
  );
}
