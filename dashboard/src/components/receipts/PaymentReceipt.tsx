import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { getDashboardPaymentReceipt, sendPaymentReceipt } from '@in-store-payments/client';
import { ApiError } from '../../api';
import { RECEIPT_SEND_AREAS } from '../../areas';
import { ErrorNote } from '../ui';
import { hasReceipt } from '../../../../core/receipt/rules';
import { useSession } from '../../session';

/**
 * The payment's receipt (docs/receipts.md): its printable lines in a monospace block, once the
 * payment was captured or authorised, and *Send receipt* to an address typed in Email (ADMIN,
 * FINANCE, OPERATIONS).
 */
export function PaymentReceipt({ payment }: { payment: { id: string; status: string; previousStatus: string | null; capturedAt: string | null } }) {
  const { can } = useSession();
  const paymentId = payment.id;
  const receipt = useQuery({
    // The status in the key: a refund or a void changes the receipt. Asked only where there is one (no 409 in the console).
    queryKey: ['payment', paymentId, 'receipt', payment.status],
    enabled: hasReceipt(payment),
    queryFn: async () => {
      try {
        return (await getDashboardPaymentReceipt({ path: { id: paymentId } })).data;
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) return null; // no receipt before capture
        throw err;
      }
    },
  });
  if (receipt.error) return <ErrorNote error={receipt.error} />;
  if (!receipt.data) return null;
  return (
    <>
      <h2>Receipt</h2>
      <pre className="receipt" aria-label="Receipt" tabIndex={0}>
        {receipt.data.lines.join('\n')}
      </pre>
      {RECEIPT_SEND_AREAS.some(can) && <SendReceipt paymentId={paymentId} />}
    </>
  );
}

function SendReceipt({ paymentId }: { paymentId: string }) {
  const [email, setEmail] = useState('');
  const send = useMutation({
    mutationFn: async () => (await sendPaymentReceipt({ path: { id: paymentId }, body: { email: email.trim() } })).data,
    onSuccess: () => setEmail(''),
  });
  return (
    <form
      className="send-receipt"
      aria-label="Send receipt"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        send.mutate();
      }}
    >
      <label>
        Email
        <input type="email" required maxLength={254} autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <button type="submit" disabled={send.isPending}>
        Send receipt
      </button>
      {send.data && (
        <p role="status" className="note">
          Receipt queued for {send.data.to}.
        </p>
      )}
      <ErrorNote error={send.error} />
    </form>
  );
}
