import Decimal from 'decimal.js';
import { between, request, sleep } from '../../support/http';
import type { Shop, Till } from '../../support/shop';
import { isFinal } from '../../core/payment/statuses';

/**
 * The bill load of the chaos run (docs/operations-chaos.md, "Bills"): a business of its own whose
 * tills, two to a runner, take bills through the payment phase's faults. Each bill follows one
 * script: split across the two tills, a card approving part and cash the rest, both tills racing
 * for the whole bill, paid in part and then cancelled, or paid in part and walked away from (it
 * expires). Every call is retried with the same reference after no answer, a 5xx or a 429, as a
 * point of sale would; what the load was told is kept for the judge (./billAnalysis.ts).
 */
export type BillScript = 'split' | 'partial' | 'race' | 'cancel' | 'expire';
const SCRIPTS: BillScript[] = ['split', 'partial', 'race', 'cancel', 'expire'];

/** A bill the service acknowledged, with what the load did to it. */
export interface TrackedBill {
  id: string;
  reference: string;
  script: BillScript;
  amount: Decimal;
  /** The cash tenders the service acknowledged (201). */
  cash: { amount: Decimal; reference: string }[];
  /** Card tenders whose creation was answered 201 on the device (AWAITING_TERMINAL). */
  tenders: string[];
  /** Tender creations refused 400 because the bill had no room for them (the race's loser). */
  refusedForAmount: number;
  /** When the cancel was accepted (202), ms since epoch. */
  cancelAcceptedAt?: number;
}

export interface BillLoadStats {
  bills: number;
  scripts: Record<string, number>;
  /** Answers to tender creations by HTTP status (0: no answer). */
  tenderAnswers: Record<string, number>;
  /** Races in which both tills' tenders for the whole bill were accepted (the bill would be over-paid). */
  racesBothAccepted: number;
  givenUp: number;
}

export interface BillLoadOptions {
  apiUrl: string;
  sandboxUrl: string;
  shop: Shop;
  /** No new bill starts after this moment (ms since epoch). */
  loadEndsAt: () => number;
  log: (line: string) => void;
}

const retryable = (status: number) => status === 0 || status === 429 || status >= 500;
const money = (d: Decimal) => d.toNumber();
/** A share of the amount in whole cents, at least one cent and one cent short of all of it. */
const part = (amount: Decimal, minPct: number, maxPct: number) =>
  Decimal.min(amount.minus('0.01'), Decimal.max('0.01', amount.times(between(minPct, maxPct)).div(100).toDecimalPlaces(2, Decimal.ROUND_DOWN)));

export class BillLoad {
  readonly bills = new Map<string, TrackedBill>();
  readonly stats: BillLoadStats = { bills: 0, scripts: {}, tenderAnswers: {}, racesBothAccepted: 0, givenUp: 0 };

  constructor(private readonly opts: BillLoadOptions) {}

  run(): Promise<void> {
    const { tills } = this.opts.shop;
    const runners = Array.from({ length: Math.floor(tills.length / 2) }, (_, i) => this.runner(i + 1, tills[2 * i]!, tills[2 * i + 1]!));
    return Promise.all(runners).then(() => undefined);
  }

  private count(map: Record<string, number>, key: string | number): void {
    map[String(key)] = (map[String(key)] ?? 0) + 1;
  }

  private async runner(n: number, one: Till, two: Till): Promise<void> {
    // Bounded: the load ends at loadEndsAt, and every wait below is bounded.
    for (let k = 0; Date.now() < this.opts.loadEndsAt(); k++) {
      const script = SCRIPTS[(k + n) % SCRIPTS.length]!;
      const bill = await this.createBill(`chaos-bill-${n}-${k + 1}`, script);
      if (!bill) continue;
      this.count(this.stats.scripts, script);
      await this[script](bill, one, two);
      await sleep(between(200, 1000));
    }
  }

  private async split(bill: TrackedBill, one: Till, two: Till): Promise<void> {
    const a = part(bill.amount, 30, 70);
    const ids = await Promise.all([this.tender(bill, one, a, 1), this.tender(bill, two, bill.amount.minus(a), 2)]);
    await Promise.all(ids.flatMap((id, i) => (id ? [this.customer([one, two][i]!, {})] : [])));
  }

  private async partial(bill: TrackedBill, one: Till): Promise<void> {
    const id = await this.tender(bill, one, bill.amount, 1);
    if (!id) return;
    const approved = part(bill.amount, 40, 80);
    await this.customer(one, { approvedAmount: money(approved) });
    if ((await this.tenderFinal(id)) !== 'CAPTURED') return;
    await this.cash(bill, bill.amount.minus(approved), 'drawer');
  }

  private async race(bill: TrackedBill, one: Till, two: Till): Promise<void> {
    const ids = await Promise.all([this.tender(bill, one, bill.amount, 1), this.tender(bill, two, bill.amount, 2)]);
    if (ids.every(Boolean)) this.stats.racesBothAccepted += 1;
    await Promise.all(ids.flatMap((id, i) => (id ? [this.customer([one, two][i]!, {})] : [])));
  }

  private async cancel(bill: TrackedBill, one: Till): Promise<void> {
    await this.paidInPart(bill, one);
    for (let attempt = 0; attempt < 30; attempt++) {
      const res = await request('POST', `${this.opts.apiUrl}/api/in-store/bills/${bill.id}/cancel`, { key: this.opts.shop.key, timeoutMs: 30_000 });
      if (res.status === 202) bill.cancelAcceptedAt ??= Date.now();
      // 409 after a lost 202: the bill is already being given back (or was).
      if (res.status === 202 || res.status === 409 || !retryable(res.status)) {
        if (res.status !== 202) this.opts.log(`cancel of bill ${bill.reference}: ${res.status} ${JSON.stringify(res.body)}`);
        return;
      }
      await sleep(1000);
    }
  }

  /** Paid in part and walked away from: a card tender and cash, then nobody; the bill expires. */
  private async expire(bill: TrackedBill, one: Till): Promise<void> {
    await this.paidInPart(bill, one);
  }

  private async paidInPart(bill: TrackedBill, till: Till): Promise<void> {
    const card = part(bill.amount, 30, 60);
    const id = await this.tender(bill, till, card, 1);
    if (id) {
      await this.customer(till, {});
      await this.tenderFinal(id);
    }
    await this.cash(bill, part(bill.amount.minus(card), 30, 60), 'drawer');
  }

  private async createBill(reference: string, script: BillScript): Promise<TrackedBill | undefined> {
    const { apiUrl, shop } = this.opts;
    const amount = new Decimal(between(1000, 19999)).div(100);
    // Walked away from: expires at the shortest timeout; the others have time to be paid through the faults.
    const body = { merchantExternalId: shop.merchantExternalId, storeExternalId: shop.storeExternalId, reference, amount: money(amount), currency: 'EUR' };
    const res = await this.send('POST', `${apiUrl}/api/in-store/bills`, { ...body, timeoutMinutes: script === 'expire' ? 1 : 2 }, `bill ${reference}`);
    if (res.status !== 201 && res.status !== 200) return undefined;
    const bill: TrackedBill = { id: res.body.id, reference, script, amount, cash: [], tenders: [], refusedForAmount: 0 };
    this.bills.set(bill.id, bill);
    this.stats.bills += 1;
    return bill;
  }

  /** A card tender on the till: its payment's id once it is on the device, else undefined (refused for the amount, or given up). */
  private async tender(bill: TrackedBill, till: Till, amount: Decimal, n: number): Promise<string | undefined> {
    const { apiUrl, shop } = this.opts;
    const body = {
      merchantExternalId: shop.merchantExternalId,
      storeExternalId: shop.storeExternalId,
      terminalExternalId: till.terminalExternalId,
      amount: money(amount),
      currency: 'EUR',
      reference: `${bill.reference}-t${n}`,
      billId: bill.id,
      terminalTimeoutMinutes: 0.2,
    };
    const giveUpAt = Date.now() + 60_000;
    while (Date.now() < giveUpAt) {
      const res = await request('POST', `${apiUrl}/api/in-store/payments`, { key: shop.key, body, timeoutMs: 30_000 });
      this.count(this.stats.tenderAnswers, res.status);
      if (res.status === 201 && res.body.status === 'AWAITING_TERMINAL') {
        bill.tenders.push(res.body.id);
        return res.body.id;
      }
      if (res.status === 400 && /^amount:/.test(res.body?.message ?? '')) {
        bill.refusedForAmount += 1;
        return undefined;
      }
      // Refused (the device still holds an earlier bill) or failed: look up, try again; another 4xx: a finding of the log.
      if (res.status !== 201 && !retryable(res.status)) {
        this.opts.log(`tender ${body.reference}: ${res.status} ${JSON.stringify(res.body)}`);
        return undefined;
      }
      await sleep(res.status === 201 ? 1500 : 750);
    }
    this.stats.givenUp += 1;
    return undefined;
  }

  private async cash(bill: TrackedBill, amount: Decimal, label: string): Promise<void> {
    const reference = `${bill.reference}-${label}`;
    const res = await this.send(
      'POST',
      `${this.opts.apiUrl}/api/in-store/bills/${bill.id}/tenders`,
      { method: 'CASH', amount: money(amount), reference },
      `cash ${reference}`,
    );
    if (res.status === 201) bill.cash.push({ amount, reference });
  }

  /** The customer at the till's device (the sandbox's control endpoint), retried while the sandbox is down. */
  private async customer(till: Till, extra: { approvedAmount?: number }): Promise<void> {
    await this.send('POST', `${this.opts.sandboxUrl}/sim/devices/${till.deviceId}/customer`, { action: 'pay', ...extra }, `customer at ${till.deviceId}`);
  }

  /** Waits (bounded) until the tender's payment is final: its status, or undefined. */
  private async tenderFinal(paymentId: string): Promise<string | undefined> {
    const until = Date.now() + 60_000;
    while (Date.now() < until) {
      const res = await request('GET', `${this.opts.apiUrl}/api/transactions/${paymentId}`, { key: this.opts.shop.key });
      if (res.status === 200 && isFinal(res.body.status)) return res.body.status;
      await sleep(750);
    }
    return undefined;
  }

  /** One request, sent again as it was after no answer, a 5xx or a 429 (up to a minute). */
  private async send(method: string, url: string, body: unknown, what: string) {
    const giveUpAt = Date.now() + 60_000;
    for (let attempt = 0; ; attempt++) {
      const res = await request(method, url, { key: url.includes('/sim/') ? undefined : this.opts.shop.key, body, timeoutMs: 30_000 });
      if (!retryable(res.status)) return res;
      if (Date.now() > giveUpAt) {
        this.stats.givenUp += 1;
        this.opts.log(`${what}: gave up after ${attempt + 1} attempts (last ${res.status} ${res.error ?? ''})`);
        return res;
      }
      await sleep(Math.min(4000, 250 * 2 ** Math.min(attempt, 4)));
    }
  }
}
