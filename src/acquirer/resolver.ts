import { LRUCache } from 'lru-cache';
import type { TakenBy } from '../../core/payment/messages';
import type { Db } from '../db/client';
import { ACCOUNT_KEY_FIELDS, type AccountKey, type Acquirers } from './acquirers';
import type { AcquirerPort } from './port';

/**
 * The one way from a record to the adapter of its acquirer (docs/architecture.md, "Where each kind
 * of rule lives"): a payment, a refund or a void (by its payment or its bill), a dispute (by its
 * payment), a payout (by its acquirer key), a settlement batch's devices (its report sources).
 *
 * A record names its acquirer in one of two ways (docs/acquirers.md): an acquirer account
 * (`acquirerAccountId`, the account's own credentials and MID), or the installation default by key
 * mode (`acquirerName`: test-mode payments the sandbox, live ones the configured `ACQUIRER`). Which
 * one is fixed when the payment is created and never changes. An account's row is read on every
 * call, so a rotated credential is used at once and a deactivated account still finishes its
 * payments; `Acquirers` keeps one adapter per account revision.
 */

/** The acquirer of record, as a payment row has it: the installation's acquirer by name, and the account when one took it. */
export interface AcquirerOfRecord {
  acquirerName: string | null;
  acquirerAccountId: string | null;
}

/** A bill at an acquirer: the device it went to and the acquirer's reference for it. */
export interface BillRef {
  deviceId: string;
  acquirerRef: string;
}

const INSTALLATION = 'installation:';

/** The acquirer key of the installation's acquirer of this name: `installation:<name>`. The one place it is built. */
export const installationKey = (name: string): string => `${INSTALLATION}${name}`;

/** The installation acquirer's name an acquirer key names, or null when the key is an account's id. The one place it is parsed. */
export const installationNameOf = (acquirerKey: string): string | null =>
  acquirerKey.startsWith(INSTALLATION) ? acquirerKey.slice(INSTALLATION.length) : null;

/**
 * Whose ids an acquirer's ids are (dispute and payout ids derive from it): the record's acquirer
 * account, else the installation's acquirer by name. (acquirerKey, acquirerDisputeId) is unique
 * (migration 0020).
 */
export const acquirerKeyOf = (record: AcquirerOfRecord): string => record.acquirerAccountId ?? installationKey(record.acquirerName ?? '');

const billKey = (ref: BillRef): string => `${ref.deviceId}\u0000${ref.acquirerRef}`;

/** Whom a settlement close asks for one device's report: an acquirer account, or the installation default. */
export interface ReportSource {
  deviceId: string;
  /** null: the installation default. */
  accountId: string | null;
  acquirer: AcquirerPort;
  /** The report's batch reference: the batch id, and the account for an account's report, so each is its own batch at the acquirer. */
  batchReference: string;
}

type ResolverDb = Pick<Db, 'acquirerAccount' | 'payment' | '$queryRaw'>;

export class AcquirerResolver {
  /**
   * Which acquirer took a payment, remembered for the life of this resolver (one per worker
   * process: `activities/index.ts`; one per API process: src/service.ts), by payment id and by its bill: after the first read of a
   * payment its installation-default calls need no database read at all. Bounded: the least
   * recently used goes first. Made at its first use, so a resolver for one call costs nothing.
   */
  private known?: LRUCache<string, TakenBy>;

  constructor(
    private readonly db: ResolverDb,
    readonly acquirers: Acquirers,
  ) {}

  /** The adapter a new payment goes to: the account a route chose, else the installation default of the key's mode. */
  choose(account: AccountKey | null, mode: string): AcquirerPort {
    return account ? this.acquirers.forAccount(account) : this.acquirers.forMode(mode);
  }

  /** The acquirer a record names (a payment, a dispute's payment): its account, read now, else the installation's acquirer by name. */
  async ofRecord(record: AcquirerOfRecord): Promise<AcquirerPort> {
    if (!record.acquirerAccountId) return this.acquirers.byName(record.acquirerName);
    const account = await this.db.acquirerAccount.findUniqueOrThrow({ where: { id: record.acquirerAccountId }, select: ACCOUNT_KEY_FIELDS });
    return this.acquirers.forAccount(account);
  }

  /** The acquirer of a record known by its acquirer key (a payout): its account when it names one, else the installation's acquirer the key names. */
  ofKey(record: { acquirerKey: string; acquirerAccountId: string | null }): Promise<AcquirerPort> {
    return this.ofRecord({ acquirerName: installationNameOf(record.acquirerKey), acquirerAccountId: record.acquirerAccountId });
  }

  /**
   * The acquirer that took a payment, by its id (with what the workflow names, when its input has
   * it: runs started since it was passed) or by its bill; remembered. A bill without its
   * reference (a void of a run from before it was passed), or of no payment here: the live acquirer.
   */
  async ofPayment(where: { paymentId: string; takenBy?: TakenBy } | { deviceId: string; acquirerRef?: string }): Promise<AcquirerPort> {
    if (!('paymentId' in where) && !where.acquirerRef) return this.acquirers.live;
    const bill = 'paymentId' in where ? null : { deviceId: where.deviceId, acquirerRef: where.acquirerRef! };
    const key = bill ? billKey(bill) : (where as { paymentId: string }).paymentId;
    const named = 'takenBy' in where ? where.takenBy : undefined;
    if (named) this.remember(key, named);
    let takenBy = named ?? this.known?.get(key);
    if (!takenBy) {
      const row = await this.db.payment.findFirst({
        where: bill ? { deviceId: bill.deviceId, acquirerRef: bill.acquirerRef } : { id: key },
        select: { acquirerName: true, acquirerAccountId: true },
      });
      if (!row) return this.acquirers.live;
      takenBy = row;
      this.remember(key, row);
    }
    return this.ofRecord(takenBy);
  }

  /** The payment's bill, once placed: its later calls name it by device and reference, and are known already. */
  billPlaced(paymentId: string, bill: BillRef): void {
    const takenBy = this.known?.get(paymentId);
    if (takenBy) this.remember(billKey(bill), takenBy);
  }

  /** What this process already knows took the payment, without reading anything. */
  knownTakenBy(paymentId: string): TakenBy | undefined {
    return this.known?.get(paymentId);
  }

  /**
   * A payment this process created (the API's create), and its bill once placed: a notification
   * about that bill then knows its acquirer without reading the payment first
   * (src/payments/acquirerNotification.ts).
   */
  created(paymentId: string, takenBy: TakenBy, bill: BillRef | null): void {
    this.remember(paymentId, takenBy);
    if (bill) this.remember(billKey(bill), takenBy);
  }

  /** Who took the payment of a bill, when this process knows it already (nothing is read). */
  knownTakenByBill(bill: BillRef): TakenBy | undefined {
    return this.known?.get(billKey(bill));
  }

  private remember(key: string, takenBy: TakenBy): void {
    (this.known ??= new LRUCache<string, TakenBy>({ max: 10_000 })).set(key, takenBy);
  }

  /**
   * Whom a close asks for reports (docs/settlement.md): each acquirer account that took the batch's
   * payments and refunds on each device, and the installation default where it took them; a device
   * with nothing claimed is asked at the acquirer of its latest payment (its report may still carry
   * a dispute's money, docs/disputes.md), else through the installation default of the batch's
   * mode, as a payment on it would be placed without routes.
   */
  async reportSources(batch: { id: string; merchantId: string; mode: string; deviceIds: string[] }): Promise<ReportSource[]> {
    const claimed = await this.db.$queryRaw<{ deviceId: string; acquirerName: string; acquirerAccountId: string | null }[]>`
      SELECT DISTINCT p."deviceId", p."acquirerName", p."acquirerAccountId" FROM "SettlementLine" l JOIN "Payment" p ON p."id" = l."paymentId"
      WHERE l."batchId" = ${batch.id} AND p."deviceId" IS NOT NULL
      ORDER BY p."deviceId", p."acquirerAccountId" NULLS FIRST`;
    for (const deviceId of batch.deviceIds.filter((d) => !claimed.some((c) => c.deviceId === d))) {
      const latest = await this.db.payment.findFirst({
        where: { merchantId: batch.merchantId, mode: batch.mode, deviceId },
        orderBy: { createdAt: 'desc' },
        select: { acquirerName: true, acquirerAccountId: true },
      });
      if (latest) claimed.push({ deviceId, acquirerName: latest.acquirerName, acquirerAccountId: latest.acquirerAccountId });
    }
    const accountIds = [...new Set(claimed.flatMap((c) => (c.acquirerAccountId ? [c.acquirerAccountId] : [])))];
    const accounts = new Map((await this.db.acquirerAccount.findMany({ where: { id: { in: accountIds } }, select: ACCOUNT_KEY_FIELDS })).map((a) => [a.id, a]));
    const sources: ReportSource[] = [];
    for (const deviceId of batch.deviceIds) {
      const onDevice: AcquirerOfRecord[] = claimed.filter((c) => c.deviceId === deviceId);
      const asked = new Set<string>();
      for (const c of onDevice.length ? onDevice : [{ acquirerName: null, acquirerAccountId: null }]) {
        const key = acquirerKeyOf(c);
        if (asked.has(key)) continue;
        asked.add(key);
        const account = c.acquirerAccountId ? accounts.get(c.acquirerAccountId) : undefined;
        sources.push(
          account
            ? { deviceId, accountId: account.id, acquirer: this.acquirers.forAccount(account), batchReference: `${batch.id}:${account.id}` }
            : {
                deviceId,
                accountId: null,
                acquirer: c.acquirerName ? this.acquirers.byName(c.acquirerName) : this.choose(null, batch.mode),
                batchReference: batch.id,
              },
        );
      }
    }
    return sources;
  }
}

/** A resolver over a caller's database and acquirers, for one call (it remembers nothing between calls). */
export const resolverOf = (deps: { db: ResolverDb; acquirers: Acquirers }): AcquirerResolver => new AcquirerResolver(deps.db, deps.acquirers);
