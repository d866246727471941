import { ApiError } from './errors';
import type { ApiContext } from './context';

/**
 * Token bucket per credential (contracts 2): a bucket of RATE_LIMIT_BURST tokens refilled at
 * RATE_LIMIT_PER_SECOND; a request takes one token or gets 429 with Retry-After in whole seconds.
 * Written here because the common limiter libraries count fixed windows, not a bucket.
 * Each API process keeps its own buckets.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes a token for `id`; returns the seconds to wait when none is left, else 0. */
  take(id: string): number {
    const t = this.now();
    const b = this.buckets.get(id) ?? { tokens: this.burst, at: t };
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 1000) * this.perSecond);
    b.at = t;
    this.buckets.set(id, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.perSecond));
  }

  async consume(ctx: ApiContext): Promise<void> {
    const p = ctx.state.principal!;
    const wait = this.take(p.kind === 'apiKey' ? `key:${p.apiKeyId}` : `user:${p.userId}`);
    if (wait > 0) throw new ApiError(429, `rate limit exceeded; retry after ${wait} s`, { 'Retry-After': String(wait) });
  }
}
