import type { Config } from '../config';
import type { Db } from '../db/client';
import { HttpAcquirer } from './httpAdapter';
import type { AcquirerPort } from './port';
import { StripeAcquirer } from './stripe/adapter';

/**
 * The acquirers of one process, by key mode (contracts 2): test-mode payments always reach the
 * sandbox; live ones the configured acquirer (`ACQUIRER`). A payment records the name of the
 * acquirer that took it (`acquirerName`), and every later call for it goes back to that one.
 */
export class Acquirers {
  constructor(
    readonly live: AcquirerPort,
    readonly test: AcquirerPort,
  ) {}

  forMode(mode: string): AcquirerPort {
    return mode === 'test' ? this.test : this.live;
  }

  /** The acquirer a payment was placed with; a name this process does not run falls back to the live one. */
  byName(name: string | null | undefined): AcquirerPort {
    if (name === this.live.name) return this.live;
    if (name === this.test.name) return this.test;
    return this.live;
  }

  /** One acquirer serves both modes (the default, `ACQUIRER=sandbox`): nothing to choose. */
  get single(): boolean {
    return this.live === this.test;
  }
}

export function createAcquirers(config: Config, sandboxUrl: string, db?: Db): Acquirers {
  const sandbox = new HttpAcquirer(sandboxUrl);
  if (config.ACQUIRER === 'stripe') {
    const refundedBill = async (refundReference: string): Promise<string | null> =>
      (await db?.refund.findUnique({ where: { refundReference }, select: { payment: { select: { acquirerRef: true } } } }))?.payment.acquirerRef ?? null;
    return new Acquirers(new StripeAcquirer({ apiKey: config.STRIPE_API_KEY!, apiBase: config.STRIPE_API_BASE, refundedBill }), sandbox);
  }
  return new Acquirers(sandbox, sandbox);
}
