import crypto from 'node:crypto';
import { createDb } from '../../src/db/client';
import { createUser, linkTerminal } from '../../src/operator';
import { request } from '../../support/http';
import type { Shop, Till } from '../../support/shop';
import { type AdyenStandIn, startAdyenStandIn } from '../../test/support/adyenStandIn';
import type { CashierAction } from './cashiers';

/**
 * The chaos run's second acquirer (issue 25): an adyen account of the chaos business, whose own
 * store's tills are Adyen terminals (POIIDs) of the Adyen stand-in (test/support/adyenStandIn, in
 * this process, so the faults that kill the stack leave it up: Adyen does not go down with us).
 * A route sends that store's payments to the account; every request the adapter sends is
 * validated against Adyen's schemas, and a request that does not validate fails the run.
 */
export const ADYEN_MID = 'ChaosShopPOS';

export class ChaosAdyen {
  private constructor(readonly standIn: AdyenStandIn) {}

  static async start(): Promise<ChaosAdyen> {
    return new ChaosAdyen(await startAdyenStandIn());
  }

  /** ADYEN_API_BASE for the API and worker: every Adyen call of the run reaches the stand-in. */
  get env(): Record<string, string> {
    return { ADYEN_API_BASE: this.standIn.url };
  }

  /**
   * The account (created by an ADMIN through the API), a store with `tills` terminals on fresh
   * POIIDs, and the route that sends the store's payments to the account: the tills' shop.
   */
  async openStore(opts: { apiUrl: string; databaseUrl: string; shop: Shop; tills: number }): Promise<Shop> {
    const { apiUrl, shop } = opts;
    const tag = crypto.randomBytes(3).toString('hex');
    const username = `chaos-admin-${tag}`;
    const password = `Chaos-${crypto.randomBytes(12).toString('hex')}-Admin`;
    const db = createDb(opts.databaseUrl, { poolSize: 1 });
    try {
      await createUser(db, { merchantExternalId: shop.merchantExternalId, username, password, roles: ['ADMIN'] });
      const login = await request('POST', `${apiUrl}/api/auth/login`, { body: { username, password } });
      const token = expectStatus(login, 200, 'admin sign-in').token as string;
      const account = expectStatus(
        await request('POST', `${apiUrl}/api/dashboard/acquirer-accounts`, {
          token,
          body: {
            name: 'Adyen (chaos)',
            acquirer: 'adyen',
            mode: 'live',
            merchantAccountId: ADYEN_MID,
            credentials: { apiKey: `AQE${crypto.randomBytes(16).toString('hex')}`, hmacKey: this.standIn.hmacKey, environment: 'LIVE' },
          },
        }),
        201,
        'adyen account',
      );
      const m = shop.merchantExternalId;
      const store = expectStatus(
        await request('POST', `${apiUrl}/api/merchants/${m}/stores`, {
          key: shop.key,
          body: { name: 'chaos adyen corner', country: 'NL', timezone: 'Europe/Amsterdam', defaultCurrency: 'EUR' },
        }),
        201,
        'adyen store',
      );
      const tills: Till[] = [];
      for (let i = 0; i < opts.tills; i++) {
        const t = expectStatus(
          await request('POST', `${apiUrl}/api/merchants/${m}/stores/${store.externalId}/terminals`, {
            key: shop.key,
            body: { label: `Adyen ${i + 1}`, terminalType: 'POS' },
          }),
          201,
          'adyen terminal',
        );
        const deviceId = `V400m-${crypto.randomInt(100_000_000, 999_999_999)}`;
        await linkTerminal(db, { merchantExternalId: m, storeExternalId: store.externalId, terminalExternalId: t.externalId, deviceId });
        tills.push({ terminalExternalId: t.externalId, deviceId });
      }
      expectStatus(
        await request('PUT', `${apiUrl}/api/dashboard/acquirer-routes`, {
          token,
          body: {
            mode: 'live',
            rules: [{ name: 'adyen-corner', accountId: account.id, match: { storeExternalIds: [store.externalId] } }],
            defaultAccountId: null,
          },
        }),
        200,
        'routes',
      );
      this.standIn.notifyTo(`${apiUrl}${account.notificationPath}`);
      return { ...shop, storeExternalId: store.externalId, tills };
    } finally {
      await db.$disconnect();
    }
  }

  /** The customer at the terminal; as the sandbox's control endpoint answers: 200 done, 409 no bill waiting. */
  async customer(till: Till, action: CashierAction): Promise<number> {
    try {
      // The stand-in's terminal knows pay, decline and cancel; a card error is a decline there.
      this.standIn.customer(till.deviceId, action === 'pay' ? 'pay' : action === 'cancel' ? 'cancel' : 'decline');
      return 200;
    } catch {
      return 409;
    }
  }

  setReachable(tills: Till[], reachable: boolean): void {
    for (const till of tills) this.standIn.unreachable(till.deviceId, !reachable);
  }

  /** The terminals' approved payments, as the judge reads the sandbox's bills: money taken once per payment. */
  bills(tills: Till[]): { paymentId: string; acquirerRef: string; state: string; voided: boolean }[] {
    return tills.flatMap((till) =>
      this.standIn.device(till.deviceId).transactions.map((t) => ({
        paymentId: t.saleTransactionId.TransactionID,
        acquirerRef: t.pspReference,
        state: t.state === 'APPROVED' ? 'CAPTURED' : t.state,
        voided: false,
      })),
    );
  }

  /** Requests the adapter sent that Adyen's schemas refuse (the run fails on any). */
  invalidRequests(): string[] {
    return this.standIn.invalid.map((r) => `${r.method} ${r.path}: ${r.errors.join('; ').slice(0, 300)}`);
  }

  close(): Promise<void> {
    return this.standIn.close();
  }
}

function expectStatus(res: { status: number; body: any }, status: number, what: string): any {
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
