import { LeasedLimit } from '../security/leasedLimit';
import type { Principal } from '../auth/principal';
import type { LimitStore } from '../security/limits';
import { ApiError } from './errors';

/**
 * The rate limit per credential (README, "Conventions of every endpoint"), held across every API process by the shared store
 * (src/security/limits.ts): RATE_LIMIT_BURST requests per window of RATE_LIMIT_BURST /
 * RATE_LIMIT_PER_SECOND seconds, so a burst of RATE_LIMIT_BURST is allowed and the sustained rate is
 * RATE_LIMIT_PER_SECOND; over it, 429 with Retry-After in whole seconds (until the window ends).
 * Taken in leases (src/security/leasedLimit.ts): most requests cost no statement.
 */
export class RateLimiter {
  private readonly limit: LeasedLimit;

  constructor(store: LimitStore, perSecond: number, burst: number) {
    this.limit = new LeasedLimit(store.limit({ prefix: 'api', points: burst, durationSeconds: burst / perSecond }));
  }

  async consume(p: Principal): Promise<void> {
    const taken = await this.limit.take(p.kind === 'apiKey' ? `key:${p.apiKeyId}` : `user:${p.userId}`);
    if (taken.refused) {
      const wait = taken.retryAfterSeconds;
      throw new ApiError(429, `rate limit exceeded; retry after ${wait} s`, { 'Retry-After': String(wait) });
    }
  }
}
