import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createDb, type Db } from '../../src/db/client';
import { apiUrlOf, killAllGroups, mainProcess, type ServiceProcess } from '../../support/serviceProcess';
import { createMerchantWithKey } from '../support/fixtures';
import { TEST_SECRETS_KEY } from '../support/stack';
import { call, expectErrorShape, type HttpResult } from '../support/http';
import { createMerchant, createUser, PASSWORD } from '../users/helpers';

/**
 * Issue 15, points 10 and 4: the API key's rate limit and the sign-in throttle hold across API
 * processes. Two API processes (`src/main.ts` with SERVICES=api, each a child of its own) share the
 * run's database; before the fix each process kept its own buckets, so two processes allowed twice
 * the rate, and sign-in had no throttle at all.
 */
const BURST = 6;

let apis: [string, string];
let processes: ServiceProcess[] = [];
let db: Db;

beforeAll(async () => {
  const root = path.join(process.env.TEST_ROOT!, `shared-limits-${crypto.randomBytes(4).toString('hex')}`);
  process.once('exit', killAllGroups);
  processes = [0, 1].map((i) => {
    const dataDir = path.join(root, `api-${i + 1}`);
    fs.mkdirSync(dataDir, { recursive: true });
    return mainProcess(`api-${i + 1}`, {
      ...process.env,
      SERVICES: 'api',
      PORT: '0', // it says where it listens: a port picked beforehand may be taken meanwhile
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: process.env.TEST_DATABASE_URL!,
      TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS!,
      TEMPORAL_TASK_QUEUE: `shared-limits-${i}`,
      TEMPORAL_METRICS_PORT: '0',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      OTEL_ENABLED: 'false',
      // A window of BURST / RATE_LIMIT_PER_SECOND = 60 s: the whole test runs inside one window.
      RATE_LIMIT_PER_SECOND: String(BURST / 60),
      RATE_LIMIT_BURST: String(BURST),
      TRUST_PROXY: 'true',
      SECRETS_KEY: TEST_SECRETS_KEY, // the run's database is shared: one key for every process
    });
  });
  db = createDb(process.env.TEST_DATABASE_URL!, { poolSize: 2 });
  const ready = await Promise.all(processes.map((p) => p.start()));
  apis = [apiUrlOf(ready[0]!), apiUrlOf(ready[1]!)];
}, 180_000);

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop(10_000).catch(() => undefined)));
  await db?.$disconnect();
});

describe('limits shared by every API process', () => {
  it("an API key's rate limit holds in total across two API processes", async () => {
    const m = await createMerchantWithKey(db);
    const path = `/api/merchants/${m.merchant.externalId}/stores`;
    const results: HttpResult[] = [];
    for (let i = 0; i < BURST * 2; i++) results.push(await call(apis[i % 2]!, 'GET', path, { key: m.key }));
    expect(results.map((r) => r.status)).toEqual([...Array(BURST).fill(200), ...Array(BURST).fill(429)]);
    for (const r of results.slice(BURST)) {
      expect(expectErrorShape(r, 429)).toMatch(/rate limit/);
      const wait = Number(r.headers.get('retry-after'));
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
    }
    // Another key keeps its own budget, on either process.
    const other = await createMerchantWithKey(db);
    expect((await call(apis[1], 'GET', `/api/merchants/${other.merchant.externalId}/stores`, { key: other.key })).status).toBe(200);
  });

  it('five wrong passwords in a row through both processes shut that address out of the account on both', async () => {
    const user = await createUser(db, await createMerchant(db), ['USER']);
    const from = `198.19.${crypto.randomInt(0, 256)}.${crypto.randomInt(1, 255)}`;
    const signIn = (api: string, password: string) =>
      call(api, 'POST', '/api/auth/login', { body: { username: user.username, password }, headers: { 'X-Forwarded-For': from } });
    for (let i = 0; i < 5; i++) expectErrorShape(await signIn(apis[i % 2]!, `Wrong-password-${i}0`), 401);
    for (const api of apis) {
      const refused = await signIn(api, PASSWORD);
      expectErrorShape(refused, 429);
      expect(refused.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    }
  });
});
