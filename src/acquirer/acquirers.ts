import type { Config } from '../config';
import type { Db } from '../db/client';
import { openCredentials } from '../acquirerAccounts/credentials';
import { HttpAcquirer } from './httpAdapter';
import type { AcquirerPort } from './port';
import { AdyenAcquirer } from './adyen/adapter';
import { adyenDisputeBook } from '../disputes/adyenNotices';
import { StripeAcquirer } from './stripe/adapter';

/**
 * The acquirers of one process: the installation default by key mode (test-mode payments the
 * sandbox, live ones the configured acquirer, `ACQUIRER`) and one adapter per acquirer account
 * (its own credentials and MID; docs/acquirers.md). Which of them a record's calls go to is
 * decided in one place, `AcquirerResolver` (./resolver.ts).
 */

/** What an adapter is built from: an account row's acquirer, MID and sealed credentials. */
export interface AccountKey {
  id: string;
  acquirer: string;
  merchantAccountId: string;
  credentials: string;
  revision: number;
}
export const ACCOUNT_KEY_FIELDS = { id: true, acquirer: true, merchantAccountId: true, credentials: true, revision: true } as const;

export class Acquirers {
  /** One adapter per account, rebuilt when its credentials or MID change (a new revision). */
  private readonly byAccount = new Map<string, { revision: number; port: AcquirerPort }>();

  constructor(
    readonly live: AcquirerPort,
    readonly test: AcquirerPort,
    private readonly build: (account: AccountKey) => AcquirerPort = () => {
      throw new Error('this process has no acquirer account adapters');
    },
  ) {}

  /** The installation default for a key mode. */
  forMode(mode: string): AcquirerPort {
    return mode === 'test' ? this.test : this.live;
  }

  /** The installation acquirer a payment was placed with; a name this process does not run falls back to the live one. */
  byName(name: string | null | undefined): AcquirerPort {
    if (name === this.live.name) return this.live;
    if (name === this.test.name) return this.test;
    return this.live;
  }

  /** The adapter of an acquirer account (its credentials, its MID). */
  forAccount(account: AccountKey): AcquirerPort {
    const cached = this.byAccount.get(account.id);
    if (cached && cached.revision === account.revision) return cached.port;
    const port = this.build(account);
    this.byAccount.set(account.id, { revision: account.revision, port });
    return port;
  }

  /** One acquirer serves both modes of the installation default (`ACQUIRER=sandbox`). */
  get single(): boolean {
    return this.live === this.test;
  }
}

export function createAcquirers(config: Config, sandboxUrl: string, db?: Db): Acquirers {
  const sandbox = new HttpAcquirer(sandboxUrl);
  // Stripe files a refund under its payment: the bill a refund reference belongs to, from our rows.
  const refundedBill = async (refundReference: string): Promise<string | null> =>
    (await db?.refund.findUnique({ where: { refundReference }, select: { payment: { select: { acquirerRef: true } } } }))?.payment.acquirerRef ?? null;
  const build = (account: AccountKey): AcquirerPort => {
    const credentials = openCredentials(account.credentials);
    switch (account.acquirer) {
      case 'sandbox':
        return new HttpAcquirer(sandboxUrl, { merchantAccountId: account.merchantAccountId });
      case 'stripe':
        return new StripeAcquirer({ apiKey: credentials.apiKey!, apiBase: config.STRIPE_API_BASE, refundedBill });
      case 'adyen':
        return new AdyenAcquirer({
          apiKey: credentials.apiKey!,
          environment: credentials.environment === 'LIVE' ? 'LIVE' : 'TEST',
          merchantAccountId: account.merchantAccountId,
          liveEndpointUrlPrefix: credentials.liveEndpointUrlPrefix,
          apiBase: config.ADYEN_API_BASE,
          reportLagHours: config.ADYEN_REPORT_LAG_HOURS,
          ...(db ? { disputeBook: adyenDisputeBook(db, account.id) } : {}),
        });
      default:
        throw new Error(`no adapter for ${account.acquirer} accounts in this version`);
    }
  };
  const live = config.ACQUIRER === 'stripe' ? new StripeAcquirer({ apiKey: config.STRIPE_API_KEY!, apiBase: config.STRIPE_API_BASE, refundedBill }) : sandbox;
  return new Acquirers(live, sandbox, build);
}
