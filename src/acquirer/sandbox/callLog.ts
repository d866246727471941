import type { Context, Next } from 'koa';

/**
 * The sandbox's own time on each acquirer-API call (from the request's arrival to its answer being
 * ready, including the device's latency setting and the state write), kept for the last calls and
 * served at GET /sim/acquirer-calls. The benchmark subtracts it from a request's latency to get the
 * service's own overhead (docs/benchmark.md).
 */
export interface AcquirerCall {
  deviceId: string;
  method: string;
  path: string;
  /** Epoch milliseconds (fractional) when the call arrived. */
  startedAt: number;
  durationMs: number;
}

const KEEP = 100_000;

export class AcquirerCallLog {
  private calls: AcquirerCall[] = [];

  middleware(prefix: string) {
    const pattern = new RegExp(`^${prefix}/devices/([^/]+)`);
    return async (ctx: Context, next: Next): Promise<void> => {
      const match = pattern.exec(ctx.path);
      if (!match) return next();
      const t0 = performance.now();
      const startedAt = performance.timeOrigin + t0;
      try {
        await next();
      } finally {
        this.calls.push({ deviceId: safeDecode(match[1]!), method: ctx.method, path: ctx.path, startedAt, durationMs: performance.now() - t0 });
        if (this.calls.length > KEEP * 1.5) this.calls = this.calls.slice(-KEEP);
      }
    };
  }

  /** The kept calls that arrived at or after `since` (epoch ms). */
  since(since: number): AcquirerCall[] {
    return this.calls.filter((c) => c.startedAt >= since).slice(-KEEP);
  }
}

function safeDecode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
