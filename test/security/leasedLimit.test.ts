import crypto from 'node:crypto';
import { LeasedLimit, leaseSizeFor } from '../../src/security/leasedLimit';
import { createLimitStore, type LimitOptions, type LimitStore } from '../../src/security/limits';

/**
 * Issue 29: the API's rate limit taken from the shared store in leases (src/security/leasedLimit.ts),
 * on the run's real database. Two stores play two API processes: each has its own pool and its own
 * leases, and only the database is shared.
 */
let stores: LimitStore[] = [];

beforeAll(() => {
  stores = [0, 1].map(() => createLimitStore(process.env.TEST_DATABASE_URL!, { poolSize: 2 }));
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
});

const options = (points: number, durationSeconds: number): LimitOptions => ({
  prefix: `lease-${crypto.randomBytes(4).toString('hex')}`,
  points,
  durationSeconds,
});
/** The same counter as seen from each process. */
const processes = (opts: LimitOptions) => stores.map((s) => ({ limit: s.limit(opts), leased: new LeasedLimit(s.limit(opts)) }));
const accepted = async (take: () => Promise<{ refused: boolean }>, times: number): Promise<number> => {
  let n = 0;
  for (let i = 0; i < times; i++) if (!(await take()).refused) n++;
  return n;
};

it('a lease is a tenth of the limit, 1 to 10: a small limit is counted point by point', () => {
  expect([3, 6, 19, 20, 100, 1000].map(leaseSizeFor)).toEqual([1, 1, 1, 2, 10, 10]);
});

it('one process: exactly the limit in a window, then refusals with Retry-After; the store is asked once per lease', async () => {
  const [a] = processes(options(100, 60));
  expect(await accepted(() => a!.leased.take('key'), 25)).toBe(25);
  // three leases of ten taken for 25 requests
  expect(await a!.limit.peek('key')).toBe(30);
  expect(await accepted(() => a!.leased.take('key'), 100)).toBe(75);
  const refused = await a!.leased.take('key');
  expect(refused.refused).toBe(true);
  expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
});

it('concurrent requests of one key wait for one lease instead of each taking one', async () => {
  const [a] = processes(options(100, 60));
  const answers = await Promise.all(Array.from({ length: 30 }, () => a!.leased.take('key')));
  expect(answers.filter((t) => t.refused)).toHaveLength(0);
  expect(await a!.limit.peek('key')).toBe(30);
});

it('two processes together never go over the limit, and refuse early at most what their leases hold', async () => {
  const [a, b] = processes(options(100, 60));
  const results = await Promise.all([accepted(() => a!.leased.take('key'), 100), accepted(() => b!.leased.take('key'), 100)]);
  const total = results[0]! + results[1]!;
  expect(total).toBeLessThanOrEqual(100);
  expect(total).toBeGreaterThanOrEqual(100 - 2 * (leaseSizeFor(100) - 1));
});

it('a lease that would go over the limit keeps only the points still free', async () => {
  const [a] = processes(options(100, 60));
  await a!.limit.take('key', 95);
  expect(await accepted(() => a!.leased.take('key'), 10)).toBe(5);
  // The five free points kept; the lease refused after them counts in full, and the key is then
  // refused from memory until the window ends: no more statements.
  expect(await a!.limit.peek('key')).toBe(110);
});

it('a used-up lease asks the store again: the points another process gave back are served', async () => {
  const [a, b] = processes(options(100, 60));
  await b!.limit.take('key', 90);
  expect(await accepted(() => a!.leased.take('key'), 10)).toBe(10); // one lease, used up
  await b!.limit.giveBack('key', 5);
  expect(await accepted(() => a!.leased.take('key'), 10)).toBe(5);
});

it('a lease ends with its window: what is left of it is not served in the next one', async () => {
  const opts = options(20, 1);
  const [a, b] = processes(opts);
  expect((await a!.leased.take('key')).refused).toBe(false); // a lease of 2: one point left in memory
  await new Promise((r) => setTimeout(r, 1100));
  await b!.limit.take('key', 20); // the next window, full
  expect((await a!.leased.take('key')).refused).toBe(true);
});
