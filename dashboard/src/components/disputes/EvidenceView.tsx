import { ScrollTable } from '../ScrollTable';
import { evidenceFacts } from '../../disputes/evidence';
import { Field, money, Status, when } from '../ui';
import { ShownText } from './ShownText';

/**
 * The evidence the service assembled from its own records when the dispute opened (docs/disputes.md, "The evidence"):
 * receipt facts, terminal and serial, cashier, store and address, the payment's status history and
 * refunds. Every value is shown as text (references and cashier ids are typed by people).
 */
export function EvidenceView({ transaction }: { transaction: Record<string, unknown> }) {
  const e = evidenceFacts(transaction, when, money);
  return (
    <section className="panel" aria-label="Assembled evidence">
      <dl className="fields">
        {e.facts.map((f) => (
          <Field key={f.label} label={f.label}>
            <ShownText value={f.value} />
          </Field>
        ))}
        {e.other.map((f) => (
          <Field key={f.label} label={f.label}>
            <ShownText value={f.value} />
          </Field>
        ))}
      </dl>

      <h3>Status history</h3>
      {e.statusHistory.length === 0 ? (
        <p className="muted">None recorded.</p>
      ) : (
        <ol className="timeline" aria-label="Evidence status history">
          {e.statusHistory.map((h, i) => (
            <li key={i}>
              <Status value={h.status} /> <span className="muted">from {h.previousStatus}</span> · <ShownText value={h.source} /> ·{' '}
              <ShownText value={h.actionReference} /> · {h.occurredAt}
            </li>
          ))}
        </ol>
      )}

      <h3>Refunds</h3>
      {e.refunds.length === 0 ? (
        <p className="muted">No refunds when the dispute opened.</p>
      ) : (
        <ScrollTable label="Evidence refunds">
          <thead>
            <tr>
              <th>Amount</th>
              <th>Status</th>
              <th>Reason</th>
              <th>Requested</th>
              <th>Decided</th>
            </tr>
          </thead>
          <tbody>
            {e.refunds.map((r) => (
              <tr key={r.id}>
                <td>{r.amount}</td>
                <td>
                  <Status value={r.status} />
                </td>
                <td>
                  <ShownText value={r.reason} />
                </td>
                <td>{r.createdAt}</td>
                <td>{r.decidedAt}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </section>
  );
}
