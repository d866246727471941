import type { AcquirerAccount } from '@in-store-payments/client';
import { Field, Status } from '../ui';
import { MaskedCredentials } from './MaskedCredentials';

/** The account just added, as the API answered it (credentials masked). */
export function CreatedAccount({ account, onDone }: { account: AcquirerAccount; onDone: () => void }) {
  return (
    <div className="panel" role="status" aria-label="Account added">
      <p>
        <strong>Account {account.name} added.</strong> Its credentials are stored sealed; only their last characters are ever shown.
      </p>
      <dl className="fields">
        <Field label="Acquirer">{account.acquirer}</Field>
        <Field label="Mode">{account.mode}</Field>
        <Field label="MID">{account.merchantAccountId}</Field>
        <Field label="Status">
          <Status value={account.status} />
        </Field>
        <Field label="Notifications to">
          <code>{account.notificationPath}</code>
        </Field>
        <Field label="Credentials">
          <MaskedCredentials credentials={account.credentials} />
        </Field>
        <Field label="Account id">
          <code>{account.id}</code>
        </Field>
      </dl>
      <button type="button" onClick={onDone}>
        Done
      </button>
    </div>
  );
}
