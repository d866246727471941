import crypto from 'node:crypto';
import Decimal from 'decimal.js';
import { createDb } from '../../src/db/client';
import { createUser } from '../../src/operator';
import { between, request, sleep } from '../../support/http';
import type { Shop, Till } from '../../support/shop';

/**
 * The refund load of the chaos run (docs/operations-chaos.md, "The refund phase"): a FINANCE user
 * of the shop, signed in through the API, refunds captured payments while the worker and the API
 * are killed and the acquirer is unreachable. Each payment gets one script: partial refunds one
 * after another, a burst of refunds at once (together more than was captured), or one refund of
 * everything. Every request carries a tag of its own in `reason`, so that each refund row can be
 * traced to the request that made it; most carry an `Idempotency-Key` and are sent again with it
 * after no answer, a 5xx or a 429, some first as an impatient request the client aborts at once.
 */
export type RefundScript = 'partials' | 'burst' | 'full';

/** One refund request as the client saw it, over all its attempts (one Idempotency-Key). */
export interface RefundRequestRecord {
  tag: string;
  paymentId: string;
  script: RefundScript;
  amount: number | null;
  idempotencyKey: string | null;
  /** HTTP status of each attempt (0: no answer, including the aborts). */
  answers: number[];
  /** The last answer: 201/200 (the refund), a 4xx (refused), or 0/5xx (given up). */
  finalAnswer: number;
  /** The error message of the last 4xx answer (what a refusal said). */
  refusal?: string;
  refundId?: string;
  /** The refund's status in the answer. */
  answeredStatus?: string;
  answeredAmount?: number;
}

/** A captured payment the phase refunds. */
export interface RefundTarget {
  id: string;
  capturedAmount: Decimal;
  fresh: boolean;
}

/** How the sandbox decides the refunds of a till's payments (by till number, in turn). */
export const DEVICE_PROFILES: { label: string; settings: Record<string, unknown> }[] = [
  { label: 'decided at once', settings: { refundOutcome: 'SUCCEEDED', refundConfirmDelayMs: 0 } },
  { label: 'decided after 5 s (PENDING answers)', settings: { refundOutcome: 'SUCCEEDED', refundConfirmDelayMs: 5_000 } },
  { label: 'decided after 20 s', settings: { refundOutcome: 'SUCCEEDED', refundConfirmDelayMs: 20_000 } },
  { label: 'FAILED after 2 s, SUCCEEDED later in the phase', settings: { refundOutcome: 'FAILED', refundConfirmDelayMs: 2_000 } },
];

export interface RefundLoadStats {
  payments: number;
  freshPayments: number;
  scripts: Record<string, number>;
  requests: number;
  /** Attempts by HTTP status (0: no answer, aborts included). */
  attempts: Record<string, number>;
  /** Logical requests by their last answer. */
  finalAnswers: Record<string, number>;
  impatient: number;
  withKey: number;
}

export interface RefundLoadOptions {
  apiUrl: string;
  sandboxUrl: string;
  databaseUrl: string;
  shop: Shop;
  refunders: number;
  loadEndsAt: () => number;
  log: (line: string) => void;
}

const put = async (url: string, body: unknown): Promise<void> => {
  for (let attempt = 0; ; attempt++) {
    const res = await request('PUT', url, { body });
    if (res.status === 200) return;
    if (attempt >= 20) throw new Error(`PUT ${url}: ${res.status} ${JSON.stringify(res.body)}`);
    await sleep(250);
  }
};

export class RefundLoad {
  readonly requests: RefundRequestRecord[] = [];
  readonly targets: RefundTarget[] = [];
  readonly stats: RefundLoadStats = {
    payments: 0,
    freshPayments: 0,
    scripts: {},
    requests: 0,
    attempts: {},
    finalAnswers: {},
    impatient: 0,
    withKey: 0,
  };
  private token = '';
  private queue: RefundTarget[] = [];
  private seq = 0;
  private readonly runTag = crypto.randomBytes(3).toString('hex');

  constructor(private readonly opts: RefundLoadOptions) {}

  /** The FINANCE user (operator function, as an installation creates its first users), signed in through the API. */
  async signIn(): Promise<void> {
    const username = `chaos-finance-${this.runTag}`;
    const password = `Chaos-${crypto.randomBytes(12).toString('hex')}-Refunds`;
    const db = createDb(this.opts.databaseUrl, { poolSize: 1 });
    try {
      await createUser(db, { merchantExternalId: this.opts.shop.merchantExternalId, username, password, roles: ['FINANCE'] });
    } finally {
      await db.$disconnect();
    }
    const res = await request('POST', `${this.opts.apiUrl}/api/auth/login`, { body: { username, password } });
    if (res.status !== 200) throw new Error(`sign-in of ${username}: ${res.status} ${JSON.stringify(res.body)}`);
    this.token = res.body.token;
  }

  /** Each till's device gets its refund profile. */
  async configureDevices(): Promise<void> {
    for (const [i, till] of this.opts.shop.tills.entries()) {
      await put(`${this.opts.sandboxUrl}/sim/devices/${till.deviceId}`, DEVICE_PROFILES[i % DEVICE_PROFILES.length]!.settings);
    }
  }

  /** The failing device's refunds succeed from now on (refunds already submitted keep their outcome). */
  async healFailingDevices(): Promise<void> {
    for (const [i, till] of this.opts.shop.tills.entries()) {
      if (i % DEVICE_PROFILES.length === 3) await put(`${this.opts.sandboxUrl}/sim/devices/${till.deviceId}`, { refundOutcome: 'SUCCEEDED' });
    }
  }

  /** Payments captured earlier in the run (their workflows have mostly ended: a refund starts a new run). */
  addCaptured(payments: { id: string; capturedAmount: number }[]): void {
    for (const p of payments) this.targets.push({ id: p.id, capturedAmount: new Decimal(p.capturedAmount), fresh: false });
  }

  /** `perTill` payments captured on every till now (their workflows are alive, in the void window). */
  async captureFresh(perTill: number): Promise<void> {
    await Promise.all(
      this.opts.shop.tills.map(async (till, i) => {
        for (let n = 1; n <= perTill; n++) {
          // One in three with an address of its own: its sale's and its refunds' receipts are judged too.
          const reference = `chaos-refund-${this.runTag}-${i + 1}-${n}`;
          const p = await this.capture(till, reference, n % 3 === 1 ? `${reference}@example.test` : undefined);
          if (p) this.targets.push(p);
        }
      }),
    );
  }

  private async capture(till: Till, reference: string, customerEmail?: string): Promise<RefundTarget | undefined> {
    const { apiUrl, sandboxUrl, shop } = this.opts;
    const body = {
      merchantExternalId: shop.merchantExternalId,
      storeExternalId: shop.storeExternalId,
      terminalExternalId: till.terminalExternalId,
      amount: between(2000, 19999) / 100,
      currency: 'EUR',
      reference,
      ...(customerEmail ? { customerEmail } : {}),
    };
    let id: string | undefined;
    for (let attempt = 0; attempt < 20 && !id; attempt++) {
      const res = await request('POST', `${apiUrl}/api/in-store/payments`, { key: shop.key, body, timeoutMs: 30_000 });
      if (res.status === 201 && res.body.status === 'AWAITING_TERMINAL') id = res.body.id;
      else if (res.status === 201)
        await sleep(1000); // the device still holds a bill: look up, try again
      else if (res.status !== 0 && res.status < 500 && res.status !== 429) throw new Error(`payment ${reference}: ${res.status} ${JSON.stringify(res.body)}`);
      else await sleep(500);
    }
    if (!id) return undefined;
    await request('POST', `${sandboxUrl}/sim/devices/${till.deviceId}/customer`, { body: { action: 'pay' } });
    const until = Date.now() + 60_000;
    while (Date.now() < until) {
      const res = await request('GET', `${apiUrl}/api/transactions/${id}`, { key: shop.key });
      if (res.status === 200 && res.body.status === 'CAPTURED') return { id, capturedAmount: new Decimal(res.body.capturedAmount), fresh: true };
      if (res.status === 200 && res.body.status !== 'AWAITING_TERMINAL' && res.body.status !== 'CREATED') return undefined;
      await sleep(300);
    }
    return undefined;
  }

  run(): Promise<void> {
    this.stats.payments = this.targets.length;
    this.stats.freshPayments = this.targets.filter((t) => t.fresh).length;
    // Fresh and older payments mixed, so kills land on both kinds of run.
    this.queue = [...this.targets].sort(() => Math.random() - 0.5);
    return Promise.all(Array.from({ length: this.opts.refunders }, () => this.refunder())).then(() => undefined);
  }

  private async refunder(): Promise<void> {
    // Bounded: the queue is finite, and the load ends at loadEndsAt.
    while (Date.now() < this.opts.loadEndsAt()) {
      const target = this.queue.shift();
      if (!target) return;
      const r = Math.random();
      const script: RefundScript = r < 0.5 ? 'partials' : r < 0.8 ? 'burst' : 'full';
      this.stats.scripts[script] = (this.stats.scripts[script] ?? 0) + 1;
      if (script === 'partials') await this.partials(target);
      else if (script === 'burst') await this.burst(target);
      else await this.send(target, script, null);
      await sleep(between(100, 800));
    }
  }

  /** A share of what was captured, in cents, at least one cent. */
  private share(t: RefundTarget, minPct: number, maxPct: number): number {
    const cents = t.capturedAmount.times(100).times(between(minPct, maxPct)).div(100).floor();
    return Decimal.max(cents, 1).div(100).toNumber();
  }

  /** Two to four partial refunds one after another; half the time a last one of all that is left. */
  private async partials(t: RefundTarget): Promise<void> {
    const count = between(2, 4);
    for (let i = 0; i < count && Date.now() < this.opts.loadEndsAt(); i++) {
      await this.send(t, 'partials', this.share(t, 10, 30));
      await sleep(between(200, 1500));
    }
    if (Math.random() < 0.5 && Date.now() < this.opts.loadEndsAt()) await this.send(t, 'partials', null);
  }

  /** Three to five refunds of one payment at once, together more than was captured: some must be refused. */
  private async burst(t: RefundTarget): Promise<void> {
    const count = between(3, 5);
    await Promise.all(Array.from({ length: count }, () => this.send(t, 'burst', this.share(t, 25, 45))));
  }

  /**
   * One refund request: with a key (most) it is sent again with that key after no answer, a 5xx or
   * a 429, up to 2 minutes; some start with an attempt the client aborts after 30-500 ms. Without a
   * key a client cannot tell a retry from a new refund, so it does not retry.
   */
  private async send(t: RefundTarget, script: RefundScript, amount: number | null): Promise<void> {
    const tag = `chaos-${this.runTag}-r${++this.seq}`;
    const key = Math.random() < 0.75 ? tag : null;
    const impatient = key !== null && Math.random() < 0.3;
    const record: RefundRequestRecord = { tag, paymentId: t.id, script, amount, idempotencyKey: key, answers: [], finalAnswer: 0 };
    this.requests.push(record);
    this.stats.requests += 1;
    if (key) this.stats.withKey += 1;
    if (impatient) this.stats.impatient += 1;
    const body = { ...(amount === null ? {} : { amount }), reason: tag };
    const giveUpAt = Date.now() + 120_000;
    for (let attempt = 0; ; attempt++) {
      const timeoutMs = impatient && attempt === 0 ? between(30, 500) : 30_000;
      const res = await request('POST', `${this.opts.apiUrl}/api/dashboard/payments/${t.id}/refunds`, {
        token: this.token,
        body,
        timeoutMs,
        headers: key ? { 'Idempotency-Key': key } : {},
      });
      record.answers.push(res.status);
      record.finalAnswer = res.status;
      this.stats.attempts[res.status] = (this.stats.attempts[res.status] ?? 0) + 1;
      if (res.status === 200 || res.status === 201) {
        record.refundId = res.body?.id;
        record.answeredStatus = res.body?.status;
        record.answeredAmount = res.body?.amount;
        break;
      }
      const retryable = res.status === 0 || res.status === 429 || res.status >= 500;
      if (res.status >= 400 && !retryable) record.refusal = typeof res.body?.message === 'string' ? res.body.message : JSON.stringify(res.body);
      if (!retryable || !key || Date.now() > giveUpAt) {
        if (retryable) this.opts.log(`refund ${tag}: gave up after ${attempt + 1} attempts (last ${res.status} ${res.error ?? ''})`);
        break;
      }
      await sleep(Math.min(4000, 250 * 2 ** Math.min(attempt, 4)));
    }
    this.stats.finalAnswers[record.finalAnswer] = (this.stats.finalAnswers[record.finalAnswer] ?? 0) + 1;
  }
}
