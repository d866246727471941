import { useState } from 'react';
import type { AcquirerAccount } from '@in-store-payments/client';
import { AccountStatusToggle } from './AccountStatusToggle';
import { CostContract } from './CostContract';
import { DeleteAccount } from './DeleteAccount';
import { RenameAccount } from './RenameAccount';
import { RotateCredentials } from './RotateCredentials';

/** One account's actions: deactivate or activate, rename, new credentials, its cost contract, delete. */
export function AccountActions({ account, onChanged }: { account: AcquirerAccount; onChanged: () => void }) {
  const [open, setOpen] = useState<'rename' | 'rotate' | 'contract' | null>(null);
  const done = (changed: boolean) => {
    setOpen(null);
    if (changed) onChanged();
  };
  if (open === 'rename') return <RenameAccount account={account} onDone={done} />;
  if (open === 'rotate') return <RotateCredentials account={account} onDone={done} />;
  if (open === 'contract') return <CostContract account={account} onDone={() => setOpen(null)} />;
  return (
    <div className="actions">
      <AccountStatusToggle account={account} onChanged={onChanged} />
      <button type="button" onClick={() => setOpen('rename')}>
        Rename
      </button>
      <button type="button" onClick={() => setOpen('rotate')}>
        Rotate credentials
      </button>
      <button type="button" onClick={() => setOpen('contract')}>
        Cost contract
      </button>
      <DeleteAccount account={account} onDeleted={onChanged} />
    </div>
  );
}
