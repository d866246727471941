import { type AccountKey, Acquirers } from '../../src/acquirer/acquirers';
import type { AcquirerPort } from '../../src/acquirer/port';
import { AcquirerResolver, acquirerKeyOf, installationKey, installationNameOf } from '../../src/acquirer/resolver';

/** The one way from a record to its acquirer (src/acquirer/resolver.ts, docs/architecture.md), without a database. */
const port = (name: string): AcquirerPort => ({ name }) as AcquirerPort;
const live = port('stripe');
const sandbox = port('sandbox');
const account = (id: string): AccountKey => ({ id, acquirer: 'adyen', merchantAccountId: `MID-${id}`, credentials: 'sealed', revision: 1 });

/** A database with one account row and the payment rows given, counting its payment reads. */
function fakeDb(payments: { id: string; deviceId?: string; acquirerRef?: string; acquirerName: string; acquirerAccountId: string | null }[]) {
  const reads = { payment: 0, account: 0 };
  const db = {
    acquirerAccount: {
      findUniqueOrThrow: ({ where }: { where: { id: string } }) => {
        reads.account++;
        return Promise.resolve(account(where.id));
      },
    },
    payment: {
      findFirst: ({ where }: { where: { id?: string; deviceId?: string; acquirerRef?: string } }) => {
        reads.payment++;
        const p = payments.find((r) => (where.id ? r.id === where.id : r.deviceId === where.deviceId && r.acquirerRef === where.acquirerRef));
        return Promise.resolve(p ? { acquirerName: p.acquirerName, acquirerAccountId: p.acquirerAccountId } : null);
      },
    },
  };
  return { db: db as unknown as ConstructorParameters<typeof AcquirerResolver>[0], reads };
}

function acquirersWithAccounts(): { acquirers: Acquirers; built: Map<string, AcquirerPort> } {
  const built = new Map<string, AcquirerPort>();
  const acquirers = new Acquirers(live, sandbox, (a) => {
    const p = port(`account ${a.id}`);
    built.set(a.id, p);
    return p;
  });
  return { acquirers, built };
}

describe('the acquirer key', () => {
  it('is built and parsed in one place: an account id, or installation:<name>', () => {
    expect(installationKey('sandbox')).toBe('installation:sandbox');
    expect(installationNameOf('installation:sandbox')).toBe('sandbox');
    expect(installationNameOf('installation:')).toBe('');
    expect(installationNameOf('0b7c6f1e-account')).toBeNull();
    expect(installationNameOf(installationKey('stripe'))).toBe('stripe');
    expect(acquirerKeyOf({ acquirerName: 'sandbox', acquirerAccountId: 'acc-1' })).toBe('acc-1');
    expect(acquirerKeyOf({ acquirerName: 'stripe', acquirerAccountId: null })).toBe('installation:stripe');
    expect(acquirerKeyOf({ acquirerName: null, acquirerAccountId: null })).toBe('installation:');
  });
});

describe('the resolver', () => {
  it('sends a new payment to the account a route chose, else to the installation default of its mode', () => {
    const { acquirers, built } = acquirersWithAccounts();
    const resolver = new AcquirerResolver(fakeDb([]).db, acquirers);
    expect(resolver.choose(null, 'test')).toBe(sandbox);
    expect(resolver.choose(null, 'live')).toBe(live);
    expect(resolver.choose(account('a'), 'live')).toBe(built.get('a'));
    expect(resolver.choose(account('a'), 'test')).toBe(built.get('a'));
  });

  it("answers a record with its account's adapter, read each time, else the installation's acquirer it names", async () => {
    const { acquirers, built } = acquirersWithAccounts();
    const { db, reads } = fakeDb([]);
    const resolver = new AcquirerResolver(db, acquirers);
    expect(await resolver.ofRecord({ acquirerName: 'sandbox', acquirerAccountId: 'a' })).toBe(built.get('a'));
    expect(await resolver.ofRecord({ acquirerName: 'sandbox', acquirerAccountId: 'a' })).toBe(built.get('a'));
    expect(reads.account).toBe(2);
    expect(await resolver.ofRecord({ acquirerName: 'sandbox', acquirerAccountId: null })).toBe(sandbox);
    expect(await resolver.ofRecord({ acquirerName: 'stripe', acquirerAccountId: null })).toBe(live);
    // A name this process does not run: the live acquirer.
    expect(await resolver.ofRecord({ acquirerName: 'elsewhere', acquirerAccountId: null })).toBe(live);
  });

  it('answers a payout by its acquirer key', async () => {
    const { acquirers, built } = acquirersWithAccounts();
    const resolver = new AcquirerResolver(fakeDb([]).db, acquirers);
    expect(await resolver.ofKey({ acquirerKey: installationKey('sandbox'), acquirerAccountId: null })).toBe(sandbox);
    expect(await resolver.ofKey({ acquirerKey: installationKey('stripe'), acquirerAccountId: null })).toBe(live);
    expect(await resolver.ofKey({ acquirerKey: 'b', acquirerAccountId: 'b' })).toBe(built.get('b'));
  });

  it('remembers who took a payment: by its id, then by its bill, reading the row once', async () => {
    const { acquirers } = acquirersWithAccounts();
    const { db, reads } = fakeDb([{ id: 'p1', deviceId: 'd1', acquirerRef: 'r1', acquirerName: 'sandbox', acquirerAccountId: null }]);
    const resolver = new AcquirerResolver(db, acquirers);
    expect(resolver.knownTakenBy('p1')).toBeUndefined();
    expect(await resolver.ofPayment({ paymentId: 'p1' })).toBe(sandbox);
    expect(await resolver.ofPayment({ paymentId: 'p1' })).toBe(sandbox);
    expect(reads.payment).toBe(1);
    expect(resolver.knownTakenBy('p1')).toEqual({ acquirerName: 'sandbox', acquirerAccountId: null });
    resolver.billPlaced('p1', { deviceId: 'd1', acquirerRef: 'r1' });
    expect(await resolver.ofPayment({ deviceId: 'd1', acquirerRef: 'r1' })).toBe(sandbox);
    expect(reads.payment).toBe(1);
  });

  it('takes what the workflow names without a read; a payment it cannot find, or a bill without a reference, goes to the live acquirer', async () => {
    const { acquirers } = acquirersWithAccounts();
    const { db, reads } = fakeDb([]);
    const resolver = new AcquirerResolver(db, acquirers);
    expect(await resolver.ofPayment({ paymentId: 'p2', takenBy: { acquirerName: 'sandbox', acquirerAccountId: null } })).toBe(sandbox);
    expect(reads.payment).toBe(0);
    expect(resolver.knownTakenBy('p2')).toEqual({ acquirerName: 'sandbox', acquirerAccountId: null });
    expect(await resolver.ofPayment({ paymentId: 'nowhere' })).toBe(live);
    expect(await resolver.ofPayment({ deviceId: 'd9' })).toBe(live);
    expect(reads.payment).toBe(1);
  });
});
