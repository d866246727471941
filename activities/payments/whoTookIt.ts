import { LRUCache } from 'lru-cache';
import type { TakenBy } from '../../core/payment/messages';

/**
 * Which acquirer took a payment, remembered per worker process: a payment's `acquirerName` and
 * `acquirerAccountId` are fixed at creation and never change, so after the first read of a payment
 * its installation-default calls need no database read at all. An account's own row (credentials,
 * revision) is still read on every call, so a rotation takes effect at once.
 */
export class WhoTookIt {
  // Bounded: the least recently used goes first.
  private readonly known = new LRUCache<string, TakenBy>({ max: 10_000 });

  get(key: string): TakenBy | undefined {
    return this.known.get(key);
  }

  /** The same payment under a second key (its bill's device and reference), when the first is known. */
  alsoKnownAs(key: string, otherKey: string): void {
    const takenBy = this.known.get(key);
    if (takenBy) this.remember(otherKey, takenBy);
  }

  remember(key: string, takenBy: TakenBy): void {
    this.known.set(key, takenBy);
  }
}
