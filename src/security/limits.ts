import { Pool } from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * Counters shared by every API process: rate-limiter-flexible's PostgreSQL store on the table
 * "RateLimit" (migration 0013). Each count is one atomic INSERT ... ON CONFLICT statement, so the
 * same key counted by several processes at once is counted once per request. The embedded database
 * speaks the PostgreSQL protocol to every process (src/db/pgliteServer.ts), so the one store serves
 * both set-ups; the library's Prisma store is not used because it counts in two statements.
 */
export const LIMITS_TABLE = 'RateLimit';

export interface LimitOptions {
  /** Names the counter; keys are stored as `<prefix>:<key>`. */
  prefix: string;
  points: number;
  /** The counting window in seconds, from the first point taken. */
  durationSeconds: number;
  /** Once over the limit, refuse for this long from the refusal that crossed it (else until the window ends). */
  blockSeconds?: number;
}

/** The outcome of taking a point: refused when the key is over its limit. */
export interface Taken {
  refused: boolean;
  /** Points in the current window, this one included. */
  consumed: number;
  /** Whole seconds until the window ends (at least 1). */
  retryAfterSeconds: number;
  /** Milliseconds until the window ends. */
  windowLeftMs: number;
}

export class Limit {
  constructor(private readonly limiter: RateLimiterPostgres) {}

  /** The points a window allows. */
  get points(): number {
    return this.limiter.points;
  }

  /** Takes `points` (one by default) for `key`; a refusal is an answer (the points stay counted), a database failure throws. */
  async take(key: string, points = 1): Promise<Taken> {
    try {
      return taken(await this.limiter.consume(key, points), false);
    } catch (err) {
      if (err instanceof RateLimiterRes) return taken(err, true);
      throw err;
    }
  }

  /** The points counted for `key` in its current window (0 when none). */
  async peek(key: string): Promise<number> {
    const res = await this.limiter.get(key);
    return res?.consumedPoints ?? 0;
  }

  /** Gives back points taken for `key` (one by default: an attempt that turned out not to count). */
  async giveBack(key: string, points = 1): Promise<void> {
    await this.limiter.reward(key, points);
  }

  /** Forgets `key`'s count. */
  async reset(key: string): Promise<void> {
    await this.limiter.delete(key);
  }
}

/** A refusal's Retry-After: whole seconds until the window ends, at least 1. */
export const retryAfterSeconds = (windowLeftMs: number): number => Math.max(1, Math.ceil(windowLeftMs / 1000));

function taken(res: RateLimiterRes, refused: boolean): Taken {
  return { refused, consumed: res.consumedPoints, retryAfterSeconds: retryAfterSeconds(res.msBeforeNext), windowLeftMs: res.msBeforeNext };
}

export interface LimitStore {
  limit(opts: LimitOptions): Limit;
  close(): Promise<void>;
}

/** One small connection pool of its own: the counters never wait behind Prisma's transactions. */
export function createLimitStore(databaseUrl: string, opts: { poolSize?: number } = {}): LimitStore {
  const pool = new Pool({ connectionString: databaseUrl, max: opts.poolSize ?? 3 });
  // An idle connection the server dropped (database restart) must not crash the process.
  pool.on('error', () => undefined);
  // The library names its statements; the embedded database has one session for all connections,
  // where a second connection preparing the same name fails ("already exists"). Unnamed, they work on both.
  const unnamed = { query: (q: { text: string; values?: unknown[] }) => pool.query({ text: q.text, values: q.values }) };
  return {
    limit: ({ prefix, points, durationSeconds, blockSeconds }) =>
      new Limit(
        new RateLimiterPostgres({
          storeClient: unnamed,
          storeType: 'pool',
          tableName: LIMITS_TABLE,
          tableCreated: true, // by migration 0013, never at run time
          keyPrefix: prefix,
          points,
          duration: durationSeconds,
          blockDuration: blockSeconds ?? 0,
        }),
      ),
    close: () => pool.end(),
  };
}
