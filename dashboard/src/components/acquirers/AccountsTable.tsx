import { ScrollTable } from '../ScrollTable';
import type { AcquirerAccount } from '@in-store-payments/client';
import { Status, when } from '../ui';
import { AccountActions } from './AccountActions';
import { MaskedCredentials } from './MaskedCredentials';

/** The business's acquirer accounts, live and test, with their actions. */
export function AccountsTable({ accounts, loaded, onChanged }: { accounts: AcquirerAccount[]; loaded: boolean; onChanged: () => void }) {
  return (
    <ScrollTable label="Acquirer accounts">
      <thead>
        <tr>
          <th>Name</th>
          <th>Acquirer</th>
          <th>Mode</th>
          <th>MID</th>
          <th>Status</th>
          <th>Notification path</th>
          <th>Credentials</th>
          <th>Updated</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {accounts.map((a) => (
          <tr key={a.id}>
            <td>{a.name}</td>
            <td>{a.acquirer}</td>
            <td>
              <span className={`mode mode-${a.mode}`}>{a.mode}</span>
            </td>
            <td>
              <code>{a.merchantAccountId}</code>
            </td>
            <td>
              <Status value={a.status} />
            </td>
            <td className="details">
              <code>{a.notificationPath}</code>
            </td>
            <td>
              <MaskedCredentials credentials={a.credentials} />
            </td>
            <td>{when(a.updatedAt)}</td>
            <td>
              <AccountActions account={a} onChanged={onChanged} />
            </td>
          </tr>
        ))}
        {loaded && accounts.length === 0 && (
          <tr>
            <td colSpan={9}>No accounts yet: every payment goes to the installation default.</td>
          </tr>
        )}
      </tbody>
    </ScrollTable>
  );
}
