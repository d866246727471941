import { between, request, sleep } from '../../support/http';
import type { Shop, Till } from '../../support/shop';
import { isFinal } from '../../core/payment/statuses';

/**
 * The load: one cashier per till, each in a loop until the load ends: create a payment (retrying
 * with the same reference on no answer, 5xx and 429, as docs/payments.md, "Rules and decisions" tells a point of sale to), then the
 * customer pays, declines, cancels or errs on the device (the sandbox's control endpoints), or the
 * cashier cancels from the till, or nobody does anything (the payment expires); now and then the
 * cashier polls sync-status. Then it waits (bounded) for the payment to be final and starts over.
 * One payment in three carries a customerEmail of its own (its receipts are judged: ./receiptAnalysis.ts),
 * and, where `voidShare` is given, that share of the captured payments is voided by the cashier at once.
 */
export type CashierAction = 'pay' | 'decline' | 'cancel' | 'error' | 'pos-cancel' | 'walk-away';

const ACTIONS: [CashierAction, number][] = [
  ['pay', 50],
  ['decline', 10],
  ['cancel', 10],
  ['error', 5],
  ['pos-cancel', 15],
  ['walk-away', 10],
];

function pickAction(): CashierAction {
  let r = Math.random() * ACTIONS.reduce((s, [, w]) => s + w, 0);
  for (const [action, weight] of ACTIONS) {
    r -= weight;
    if (r < 0) return action;
  }
  return 'pay';
}

/** A payment the service acknowledged with 201. */
export interface TrackedPayment {
  id: string;
  pspReference: string;
  reference: string;
  terminalTimeoutMinutes: number;
  statusAtCreate: string;
  createdAt: string;
  action?: CashierAction;
  /** HTTP status of the customer's (or the till's cancel) call; 0 when it got no answer. */
  actionAnswer?: number;
  /** The address its receipts go to (one payment in three). */
  customerEmail?: string;
  /** HTTP status of the cashier's void of the captured payment, when it voided it. */
  voidAnswer?: number;
}

export interface LoadStats {
  createRequests: number;
  /** Answers to create requests by HTTP status (0: no answer). */
  createAnswers: Record<string, number>;
  /** References given up on after the retry budget (the service may still hold a payment for them). */
  createsGivenUp: number;
  actions: Record<string, number>;
  syncCalls: number;
  syncAnswers: Record<string, number>;
  /** Payments created with a customerEmail. */
  withEmail: number;
  /** Voids of captured payments by their answer. */
  voidAnswers: Record<string, number>;
}

export interface LoadOptions {
  apiUrl: string;
  sandboxUrl: string;
  shop: Shop;
  /** Terminal timeouts to choose from (minutes). */
  timeouts: number[];
  /** No new payment starts after this moment (ms since epoch). */
  loadEndsAt: () => number;
  /** How long a cashier waits for a payment to be final before moving on. */
  waitFinalMs: number;
  log: (line: string) => void;
  /** The customer at the till's device; default the sandbox's control endpoint. Answers its HTTP status (0: no answer). */
  customer?: (till: Till, action: CashierAction) => Promise<number>;
  /** The share of captured payments the cashier voids at once (POST .../void); default none. */
  voidShare?: number;
}

export class Cashiers {
  readonly payments = new Map<string, TrackedPayment>();
  readonly stats: LoadStats = {
    createRequests: 0,
    createAnswers: {},
    createsGivenUp: 0,
    actions: {},
    syncCalls: 0,
    syncAnswers: {},
    withEmail: 0,
    voidAnswers: {},
  };

  /** `firstCashier`: a second group of cashiers in the same run keeps references of its own. */
  constructor(
    private readonly opts: LoadOptions,
    private readonly firstCashier = 1,
  ) {}

  run(): Promise<void> {
    return Promise.all(this.opts.shop.tills.map((till, i) => this.cashier(this.firstCashier + i, till))).then(() => undefined);
  }

  private count(map: Record<string, number>, key: string | number): void {
    map[String(key)] = (map[String(key)] ?? 0) + 1;
  }

  private async cashier(n: number, till: Till): Promise<void> {
    const { apiUrl, sandboxUrl, shop } = this.opts;
    let bill = 0;
    // Bounded: the load ends at loadEndsAt, and every wait below is bounded.
    while (Date.now() < this.opts.loadEndsAt()) {
      bill += 1;
      const reference = `chaos-${n}-${bill}`;
      const timeoutMinutes = this.opts.timeouts[between(0, this.opts.timeouts.length - 1)]!;
      const created = await this.create(till, reference, timeoutMinutes);
      if (!created) continue;
      if (created.statusAtCreate !== 'AWAITING_TERMINAL') {
        // Refused (another bill still on the device) or failed: the cashier looks up, then tries again.
        await sleep(between(1500, 3000));
        continue;
      }
      await sleep(between(0, 2500));
      const action = pickAction();
      created.action = action;
      this.count(this.stats.actions, action);
      if (action === 'pos-cancel') {
        created.actionAnswer = (await request('POST', `${apiUrl}/api/in-store/payments/${created.id}/cancel`, { key: shop.key })).status;
      } else if (action !== 'walk-away') {
        created.actionAnswer = this.opts.customer
          ? await this.opts.customer(till, action)
          : (await request('POST', `${sandboxUrl}/sim/devices/${till.deviceId}/customer`, { body: { action } })).status;
      }
      const final = await this.waitFinal(created, Math.random() < 0.3);
      if (final === 'CAPTURED' && Math.random() < (this.opts.voidShare ?? 0)) {
        // The cashier takes the sale back at once (docs/payments.md, "Void"): a voided receipt for those with an address.
        created.voidAnswer = (await request('POST', `${apiUrl}/api/in-store/payments/${created.id}/void`, { key: shop.key })).status;
        this.count(this.stats.voidAnswers, created.voidAnswer);
      }
    }
  }

  /** Creates with the same reference until answered 201, another 4xx, or the retry budget is spent. */
  private async create(till: Till, reference: string, timeoutMinutes: number): Promise<TrackedPayment | undefined> {
    const { apiUrl, shop } = this.opts;
    // One bill in three, by its number, so that a retry with the same reference sends the same address.
    const customerEmail = Number(reference.split('-').pop()) % 3 === 1 ? `${reference}@example.test` : undefined;
    const body = {
      merchantExternalId: shop.merchantExternalId,
      storeExternalId: shop.storeExternalId,
      terminalExternalId: till.terminalExternalId,
      amount: between(100, 9999) / 100,
      currency: 'EUR',
      reference,
      terminalTimeoutMinutes: timeoutMinutes,
      ...(customerEmail ? { customerEmail } : {}),
    };
    const giveUpAt = Date.now() + 60_000;
    for (let attempt = 0; ; attempt++) {
      this.stats.createRequests += 1;
      const res = await request('POST', `${apiUrl}/api/in-store/payments`, { key: shop.key, body, timeoutMs: 30_000 });
      this.count(this.stats.createAnswers, res.status);
      if (res.status === 201) {
        const p = res.body;
        const tracked: TrackedPayment = {
          id: p.id,
          pspReference: p.pspReference,
          reference,
          terminalTimeoutMinutes: timeoutMinutes,
          statusAtCreate: p.status,
          createdAt: p.createdAt,
          ...(customerEmail ? { customerEmail } : {}),
        };
        // A repeat answered with the same payment (idempotency) is one payment.
        if (!this.payments.has(p.id)) {
          this.payments.set(p.id, tracked);
          if (customerEmail) this.stats.withEmail += 1;
        }
        return this.payments.get(p.id);
      }
      const retryable = res.status === 0 || res.status === 429 || res.status >= 500;
      if (!retryable) {
        this.opts.log(`create ${reference}: ${res.status} ${JSON.stringify(res.body)}`);
        return undefined;
      }
      if (Date.now() > giveUpAt) {
        this.stats.createsGivenUp += 1;
        this.opts.log(`create ${reference}: gave up after ${attempt + 1} attempts (last ${res.status} ${res.error ?? ''})`);
        return undefined;
      }
      await sleep(Math.min(4000, 250 * 2 ** Math.min(attempt, 4)));
    }
  }

  /** Waits (bounded) until the payment is final, reading it, or polling sync-status like a watching cashier; its final status, if seen. */
  private async waitFinal(p: TrackedPayment, polls: boolean): Promise<string | undefined> {
    const { apiUrl, shop } = this.opts;
    const until = Date.now() + this.opts.waitFinalMs;
    while (Date.now() < until) {
      let status: string | undefined;
      if (polls) {
        this.stats.syncCalls += 1;
        const res = await request('POST', `${apiUrl}/api/in-store/payments/${p.id}/sync-status`, { key: shop.key });
        this.count(this.stats.syncAnswers, res.status);
        status = res.status === 200 ? res.body?.status : undefined;
      } else {
        const res = await request('GET', `${apiUrl}/api/transactions/${p.id}`, { key: shop.key });
        status = res.status === 200 ? res.body?.status : undefined;
      }
      if (status && isFinal(status)) return status;
      await sleep(polls ? 2000 : 1000);
    }
    return undefined;
  }
}
