import { LRUCache } from 'lru-cache';
import { type Limit, retryAfterSeconds, type Taken } from './limits';

/** Points left of a lease, and when its window ends (the lease is worth nothing after); or a refusal until then. */
interface Lease {
  left: number;
  endsAtMs: number;
  refused: boolean;
}

/** A lease's size for a limit of `points` per window: a tenth of it, 1 to 10 (a small limit is counted point by point). */
export const leaseSizeFor = (points: number): number => Math.max(1, Math.min(10, Math.floor(points / 10)));

/**
 * A shared limit taken from the store in leases: a process takes up to ten points at once and
 * serves them from memory until they run out or the window ends, so most requests need no
 * statement. Never more than the limit in a window, whatever the number of processes: every point
 * served was counted in the store for that window. The price: with N processes, a key can be
 * refused while up to N x (lease - 1) of its points sit unused in other processes' leases.
 * A lease that would go over the limit keeps only the points that were still free and gives the
 * rest back; when none were, the key is refused from memory until the window ends (a client
 * hammering past its limit costs no statement per request). Concurrent requests of one key wait
 * for the one lease being taken (else a burst would take a lease each and exhaust the window).
 */
export class LeasedLimit {
  private readonly leases = new LRUCache<string, Lease>({ max: 10_000 });
  /** The lease being taken for a key: concurrent requests wait for it instead of each taking one. */
  private readonly taking = new Map<string, Promise<void>>();
  private readonly size: number;

  constructor(private readonly limit: Limit) {
    this.size = leaseSizeFor(limit.points);
  }

  async take(key: string): Promise<Pick<Taken, 'refused' | 'retryAfterSeconds'>> {
    if (this.size === 1) return this.limit.take(key);
    for (;;) {
      const served = this.fromLease(key);
      if (served) return served;
      let taking = this.taking.get(key);
      if (!taking) {
        taking = this.newLease(key).finally(() => this.taking.delete(key));
        this.taking.set(key, taking);
      }
      await taking;
    }
  }

  /** A point from the key's lease, or its refusal; undefined when there is no lease with points left in this window. */
  private fromLease(key: string): Pick<Taken, 'refused' | 'retryAfterSeconds'> | undefined {
    const lease = this.leases.get(key);
    const nowMs = Date.now();
    if (!lease || nowMs >= lease.endsAtMs || (!lease.refused && lease.left === 0)) return undefined;
    if (!lease.refused) lease.left--;
    return { refused: lease.refused, retryAfterSeconds: retryAfterSeconds(lease.endsAtMs - nowMs) };
  }

  private async newLease(key: string): Promise<void> {
    const nowMs = Date.now();
    const taken = await this.limit.take(key, this.size);
    const endsAtMs = nowMs + taken.windowLeftMs;
    // Points that were free before this lease (the store counts a refused lease in full).
    const free = Math.min(this.size, this.limit.points - (taken.consumed - this.size));
    if (free < 1) return void this.leases.set(key, { left: 0, endsAtMs, refused: true });
    if (free < this.size) await this.limit.giveBack(key, this.size - free);
    this.leases.set(key, { left: free, endsAtMs, refused: false });
  }
}
