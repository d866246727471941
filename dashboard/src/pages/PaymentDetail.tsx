import { ScrollTable } from '../components/ScrollTable';
import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { isDisputeOpen } from '../../../core/dispute/statuses';
import { ApiError } from '../api';
import { REFUND_AREA } from '../areas';
import { PaymentAcquirer } from '../components/acquirers/PaymentAcquirer';
import { PaymentBill } from '../components/bills/PaymentBill';
import { PaymentDisputes } from '../components/disputes/PaymentDisputes';
import { PaymentReceipt } from '../components/receipts/PaymentReceipt';
import { StoreName, TerminalName, UserName } from '../components/Names';
import { ErrorNote, Field, money, Status, when } from '../components/ui';
import { useSession } from '../session';
import { createRefund, getDashboardPayment, listRefunds, redeliverDashboardWebhookEvent, type Refund } from '@in-store-payments/client';

const REFUNDABLE = ['CAPTURED', 'SETTLED', 'PARTIALLY_REFUNDED'];

/**
 * One payment (docs/dashboard.md, "Payment detail"): its fields (with its acquirer account and route rule, its dispute, and the bill it is a tender of), status history, refunds and webhook deliveries; the
 * Refund button for ADMIN and FINANCE, redelivery for ADMIN. Refreshes while something may
 * still change (an open status, a pending refund or delivery).
 */
export function PaymentDetail() {
  const { paymentId = '' } = useParams();
  const { can } = useSession();
  const client = useQueryClient();
  const detail = useQuery({
    queryKey: ['payment', paymentId],
    queryFn: async () => (await getDashboardPayment({ path: { id: paymentId } })).data,
    refetchInterval: 3000,
  });
  const refunds = useQuery({
    queryKey: ['payment', paymentId, 'refunds'],
    queryFn: async (): Promise<Refund[]> => {
      try {
        return (await listRefunds({ path: { paymentId } })).data;
      } catch (err) {
        if (err instanceof ApiError && err.status === 404 && detail.data) return [];
        throw err;
      }
    },
    enabled: detail.isSuccess,
    refetchInterval: 3000,
  });
  const redeliver = useMutation({
    mutationFn: (v: { eventId: string; configId: string }) => redeliverDashboardWebhookEvent({ path: { eventId: v.eventId }, body: { configId: v.configId } }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['payment', paymentId] }),
  });

  if (detail.error) return <ErrorNote error={detail.error} />;
  const p = detail.data;
  if (!p) return <p>Loading…</p>;
  const refundList = refunds.data ?? [];

  return (
    <section>
      <p>
        <Link to="/payments">← Payments</Link>
      </p>
      <h1>
        Payment {p.pspReference} <Status value={p.status} />
      </h1>
      <dl className="fields">
        <Field label="Amount">{money(p.amount, p.currency)}</Field>
        {p.requestedAmount !== p.amount && (
          <Field label="Requested amount">
            {money(p.requestedAmount, p.currency)} <span className="muted">(partly approved: the card approved less than asked)</span>
          </Field>
        )}
        <PaymentBill payment={p} />
        <Field label="Reference">{p.reference ?? '—'}</Field>
        <Field label="Mode">{p.mode}</Field>
        <Field label="Store">
          <StoreName id={p.storeExternalId} /> <code>{p.storeExternalId}</code>
        </Field>
        <Field label="Terminal">
          <TerminalName id={p.terminalExternalId} /> <code>{p.terminalExternalId}</code>
        </Field>
        <Field label="Method">{[p.paymentMethod, p.cardBrand, p.last4 && `•••• ${p.last4}`].filter(Boolean).join(' ') || '—'}</Field>
        <Field label="Captured amount">{money(p.capturedAmount, p.currency)}</Field>
        <Field label="Refunded amount">{money(p.refundedAmount, p.currency)}</Field>
        <Field label="Reason">{p.reason ?? p.refusalReason ?? '—'}</Field>
        <PaymentAcquirer payment={p} />
        <PaymentDisputes payment={p} />
        <Field label="Created">{when(p.createdAt)}</Field>
        <Field label="Captured">{when(p.capturedAt)}</Field>
        <Field label="Settled">{when(p.settledAt)}</Field>
        <Field label="Payment id">
          <code>{p.id}</code>
        </Field>
      </dl>

      {can(REFUND_AREA) && REFUNDABLE.includes(p.status) && !isDisputeOpen(p.disputeStatus) && <RefundForm paymentId={p.id} currency={p.currency} />}
      {can(REFUND_AREA) && REFUNDABLE.includes(p.status) && isDisputeOpen(p.disputeStatus) && (
        <p className="note">No refund while a dispute of this payment is open: the cardholder’s bank has the money in question.</p>
      )}

      <PaymentReceipt payment={p} />

      <h2>Status history</h2>
      <ol className="timeline" aria-label="Status history">
        {p.history.map((h, i) => (
          <li key={i}>
            <Status value={h.status} /> <span className="muted">from {h.previousStatus ?? '—'}</span> · {h.source} · {h.actionReference} · {when(h.occurredAt)}
          </li>
        ))}
      </ol>

      <h2>Refunds</h2>
      <ErrorNote error={refunds.error} />
      {refundList.length === 0 ? (
        <p className="muted">No refunds.</p>
      ) : (
        <ScrollTable label="Refunds">
          <thead>
            <tr>
              <th>Amount</th>
              <th>Status</th>
              <th>Reason</th>
              <th>By</th>
              <th>Created</th>
            </tr>
          </thead>
          <tbody>
            {refundList.map((r) => (
              <tr key={r.id}>
                <td>{money(r.amount, r.currency)}</td>
                <td>
                  <Status value={r.status} />
                  {r.failureReason && <span className="muted"> {r.failureReason}</span>}
                </td>
                <td>{r.reason ?? '—'}</td>
                <td>
                  <UserName username={r.createdBy} />
                </td>
                <td>{when(r.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}

      {p.webhookEvents && (
        <>
          <h2>Webhook deliveries</h2>
          <ErrorNote error={redeliver.error} />
          {p.webhookEvents.length === 0 ? (
            <p className="muted">No events sent for this payment.</p>
          ) : (
            <ScrollTable label="Webhook deliveries">
              <thead>
                <tr>
                  <th>Event</th>
                  <th>Destination</th>
                  <th>Status</th>
                  <th>Attempts</th>
                  <th>Sent</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {p.webhookEvents.flatMap((e) =>
                  (e.deliveries.length ? e.deliveries : [null]).map((d) => (
                    <tr key={`${e.eventId}-${d?.configId ?? 'none'}`}>
                      <td>{e.eventType}</td>
                      <td>{d?.url ?? 'no destination'}</td>
                      <td>{d ? <Status value={d.status} /> : '—'}</td>
                      <td>{d?.attempts ?? 0}</td>
                      <td>{when(e.createdAt)}</td>
                      <td>
                        {d && can('webhooks') && (
                          <button type="button" disabled={redeliver.isPending} onClick={() => redeliver.mutate({ eventId: e.eventId, configId: d.configId })}>
                            Redeliver
                          </button>
                        )}
                      </td>
                    </tr>
                  )),
                )}
              </tbody>
            </ScrollTable>
          )}
        </>
      )}
    </section>
  );
}

/** Refund (docs/refunds.md): Amount defaults to all that is refundable; one Idempotency-Key per form. */
function RefundForm({ paymentId, currency }: { paymentId: string; currency: string }) {
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [key, setKey] = useState(() => crypto.randomUUID());
  const client = useQueryClient();
  const refund = useMutation({
    mutationFn: () =>
      createRefund({
        path: { paymentId },
        headers: { 'Idempotency-Key': key },
        body: { ...(amount.trim() ? { amount: Number(amount) } : {}), ...(reason.trim() ? { reason: reason.trim() } : {}) },
      }),
    onSuccess: async () => {
      setOpen(false);
      setAmount('');
      setReason('');
      setKey(crypto.randomUUID());
      await client.invalidateQueries({ queryKey: ['payment', paymentId] });
    },
  });
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)}>
        Refund
      </button>
    );
  }
  return (
    <form
      className="refund"
      aria-label="Refund"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        refund.mutate();
      }}
    >
      <label>
        Amount
        {/* The form opens where the Refund button was: the keyboard goes on in Amount. */}
        <input inputMode="decimal" value={amount} placeholder={`all that is refundable (${currency})`} onChange={(e) => setAmount(e.target.value)} autoFocus />
      </label>
      <label>
        Reason
        <input value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
      </label>
      <button type="submit" disabled={refund.isPending}>
        Confirm refund
      </button>
      <button type="button" className="link" onClick={() => setOpen(false)}>
        Cancel
      </button>
      <ErrorNote error={refund.error} />
    </form>
  );
}
