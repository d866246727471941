import { type AccountKey, Acquirers } from '../../src/acquirer/acquirers';
import { HttpAcquirer } from '../../src/acquirer/httpAdapter';
import type { AcquirerPort } from '../../src/acquirer/port';

/** docs/acquirers.md: one adapter per account, reused while the account is unchanged, rebuilt when its credentials or MID change (a new revision). */
const sandbox = new HttpAcquirer('http://127.0.0.1:9');
const account = (id: string, revision: number): AccountKey => ({ id, acquirer: 'sandbox', merchantAccountId: `MID-${id}`, credentials: 'sealed', revision });

it('builds each account once per revision', () => {
  const built: string[] = [];
  const acquirers = new Acquirers(sandbox, sandbox, (a) => {
    built.push(`${a.id}@${a.revision}`);
    return new HttpAcquirer('http://127.0.0.1:9', { merchantAccountId: a.merchantAccountId });
  });
  const first: AcquirerPort = acquirers.forAccount(account('a', 1));
  expect(acquirers.forAccount(account('a', 1))).toBe(first);
  const b = acquirers.forAccount(account('b', 1));
  expect(b).not.toBe(first);
  const rotated = acquirers.forAccount(account('a', 2));
  expect(rotated).not.toBe(first);
  expect(acquirers.forAccount(account('a', 2))).toBe(rotated);
  expect(built).toEqual(['a@1', 'b@1', 'a@2']);
});

it('an account adapter needs a builder', () => {
  expect(() => new Acquirers(sandbox, sandbox).forAccount(account('x', 1))).toThrow(/no acquirer account adapters/);
});
