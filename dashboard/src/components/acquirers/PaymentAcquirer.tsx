import { ACQUIRER_AREA } from '../../areas';
import { useAcquirerAccounts } from '../../acquirers/useAcquirerAccounts';
import { useSession } from '../../session';
import type { Payment } from '@in-store-payments/client';
type Fields = Pick<Payment, 'acquirerAccountId' | 'acquirerName' | 'routeRule'>;
import { Field } from '../ui';

/**
 * Where a payment went (docs/acquirers.md): its account (by name for ADMIN, who may read the accounts;
 * else its id; "Installation default" when null), the acquirer and the route rule that chose it.
 */
export function PaymentAcquirer({ payment }: { payment: Fields }) {
  const { can } = useSession();
  const readable = can(ACQUIRER_AREA);
  const accounts = useAcquirerAccounts(readable && payment.acquirerAccountId != null);
  const id = payment.acquirerAccountId;
  const account = id ? accounts.data?.find((a) => a.id === id) : undefined;
  return (
    <>
      <Field label="Acquirer account">
        {id == null ? (
          'Installation default'
        ) : account ? (
          <span title={id}>
            {account.name} <span className="muted">({account.merchantAccountId})</span>
          </span>
        ) : (
          <code>{id}</code>
        )}
      </Field>
      <Field label="Acquirer">{payment.acquirerName ?? '—'}</Field>
      <Field label="Route rule">{payment.routeRule ?? '—'}</Field>
    </>
  );
}
