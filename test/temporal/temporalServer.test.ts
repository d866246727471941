/**
 * `npm run temporal-server` (scripts/temporal-server/): what it says when it cannot run, and, when
 * the suite runs against it (CI's PostgreSQL run: scripts/with-temporal-server.sh sets
 * TEMPORAL_ADDRESS), that it is the real server with the settings of deploy/.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { checkGo, TEMPORAL_SERVER_VERSION } from '../../scripts/temporal-server/build';
import { postgresTargetFromUrl, readServerEnvFile } from '../../scripts/temporal-server/server';
import { PAYMENT_SEARCH_ATTRIBUTES } from '../../core/searchAttributes';

const ROOT = path.resolve(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');

describe('npm run temporal-server', () => {
  it('says which PostgreSQL settings it needs when it has none, and starts nothing', () => {
    const env = { ...process.env, DATABASE_URL: '', TEMPORAL_SERVER_DATABASE_URL: '' };
    const res = spawnSync(process.execPath, [TSX, 'scripts/temporal-server/main.ts'], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
    expect(res.status).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('set TEMPORAL_SERVER_DATABASE_URL=postgresql://user:password@host:port');
  });

  it('says that Go is needed, and which, when the go command is missing or too old', () => {
    const saved = process.env.GO;
    const dir = fs.mkdtempSync(path.join(process.env.TEST_ROOT!, 'go-'));
    try {
      process.env.GO = path.join(dir, 'no-such-go');
      expect(() => checkGo()).toThrow(/needs Go 1\.21 or newer .* does not run/);
      // Debian bookworm's golang-go: too old to fetch the toolchain the server asks for.
      const old = path.join(dir, 'go');
      fs.writeFileSync(old, '#!/bin/sh\necho go1.19.8\n', { mode: 0o755 });
      process.env.GO = old;
      expect(() => checkGo()).toThrow(/is go1\.19\.8, too old to fetch a newer toolchain/);
    } finally {
      if (saved === undefined) delete process.env.GO;
      else process.env.GO = saved;
    }
  });

  it('reads its settings: a postgresql:// URL and deploy/temporal-server.env', () => {
    expect(postgresTargetFromUrl('postgresql://tem%40p:p%2Fw@db.local:6543/payments')).toEqual({
      host: 'db.local',
      port: 6543,
      user: 'tem@p',
      password: 'p/w',
    });
    expect(postgresTargetFromUrl('postgres://127.0.0.1/x')).toEqual({ host: '127.0.0.1', port: 5432, user: 'postgres', password: '' });
    expect(() => postgresTargetFromUrl('mysql://h/x')).toThrow(/not a postgresql:\/\/ URL/);
    expect(readServerEnvFile()).toMatchObject({ DB: 'postgres12', NUM_HISTORY_SHARDS: '4' });
  });
});

// Only where the suite runs against an outside Temporal (CI: the server of `npm run temporal-server`).
const onServer = process.env.TEMPORAL_ADDRESS ? describe : describe.skip;

onServer('the Temporal server the suite runs against', () => {
  let connection: Connection;
  beforeAll(async () => {
    connection = await Connection.connect({ address: process.env.TEST_TEMPORAL_ADDRESS! });
  });
  afterAll(async () => connection?.close());

  it('is the pinned server version with 4 history shards and PostgreSQL persistence and visibility', async () => {
    const info = await connection.workflowService.getClusterInfo({});
    expect(info.serverVersion).toBe(TEMPORAL_SERVER_VERSION);
    expect(info.historyShardCount).toBe(4);
    expect(info.persistenceStore).toBe('postgres12');
    expect(info.visibilityStore).toBe('postgres12');
  });

  it('has the payment search attributes on the namespace', async () => {
    const attrs = await connection.operatorService.listSearchAttributes({ namespace: 'default' });
    for (const a of PAYMENT_SEARCH_ATTRIBUTES) expect(Object.keys(attrs.customAttributes ?? {})).toContain(a.name);
  });
});
