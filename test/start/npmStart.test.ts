/**
 * `npm start` as a user runs it: the whole service from nothing (embedded database, Temporal dev
 * server, migrations, worker, API, sandbox), `ready ` once everything answers, a clean stop on
 * SIGTERM with no process left behind, and state kept across a restart.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { signSandboxBody } from '../../src/acquirer/sandbox/notify';
import { freePort } from '../../src/process/freePort';
import { serviceNodeArgs } from '../../src/process/tsx';

const ROOT = path.resolve(__dirname, '../..');

interface Started {
  child: ChildProcess;
  ready: string;
  output: string[];
}

function start(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, serviceNodeArgs(path.join(ROOT, 'src/main.ts')), {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: '', TEMPORAL_ADDRESS: '', LOG_LEVEL: 'warn', ...env },
  });
  const output: string[] = [];
  return new Promise((resolve, reject) => {
    const onData = (buf: Buffer): void => {
      for (const line of buf.toString().split('\n')) {
        output.push(line);
        if (line.startsWith('ready ')) resolve({ child, ready: line, output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`exited ${code} before ready:\n${output.join('\n')}`)));
  });
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

/** Every process whose command line mentions the folder (children of the service). */
function processesUsing(marker: string): string[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
        const env = fs.readFileSync(`/proc/${pid}/environ`, 'utf8');
        return cmd.includes(marker) || env.includes(marker) ? [`${pid} ${cmd}`] : [];
      } catch {
        return [];
      }
    });
}

// `npm start` clears DATABASE_URL and TEMPORAL_ADDRESS, so this file does the same in either stack
// lane: it runs once, in the embedded one (the PostgreSQL lane would repeat it to the byte).
const embeddedLane = process.env.TEST_DATABASE_KIND === 'embedded' ? it : it.skip;

embeddedLane(
  'starts everything, answers, stops cleanly and keeps state across a restart',
  async () => {
    const dataDir = path.join(process.env.TEST_ROOT!, `npm-start-${Date.now()}`);
    const [port, simPort, temporalPort, uiPort, dbPort, mailPort] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort(), freePort()]);
    const env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      SIM_PORT: String(simPort),
      MAIL_PORT: String(mailPort),
      TEMPORAL_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      EMBEDDED_DB_PORT: String(dbPort),
    };

    const first = await start(env);
    expect(first.ready).toContain(`api=http://127.0.0.1:${port}`);
    expect(first.ready).toContain(`dashboard=http://127.0.0.1:${port}/dashboard`);
    expect(first.ready).toContain(`sandbox=http://127.0.0.1:${simPort}`);
    expect(first.ready).toContain(`temporal-ui=http://127.0.0.1:${uiPort}`);
    // The development mailbox (docs/receipts.md): SMTP on MAIL_PORT, read back on the sandbox.
    expect(first.ready).toContain(`mailbox=http://127.0.0.1:${simPort}/sim/mailbox`);
    expect(first.ready).toContain(`smtp=smtp://127.0.0.1:${mailPort}`);
    expect(await (await fetch(`http://127.0.0.1:${simPort}/sim/mailbox`)).json()).toEqual([]);
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${uiPort}/`)).status).toBe(200); // the Web UI answers
    // Read-only unless asked for (docs/security.md, "Messages to workflows"): no write button, and a write refused.
    const settings = (await (await fetch(`http://127.0.0.1:${uiPort}/api/v1/settings`)).json()) as Record<string, unknown>;
    expect(settings).toMatchObject({ DisableWriteActions: true, WorkflowUpdateDisabled: true, WorkflowSignalDisabled: true, WorkflowTerminateDisabled: true });
    const write = await fetch(`http://127.0.0.1:${uiPort}/api/v1/namespaces/default/workflows/payment-x/update/refund`, {
      method: 'POST',
      headers: { Authorization: 'Bearer anything', 'Content-Type': 'application/json' },
      body: JSON.stringify({ request: { input: { name: 'refund' } } }),
    });
    expect(write.status).toBe(403);
    expect((await fetch(`http://127.0.0.1:${uiPort}/api/v1/namespaces/default/workflows`)).status).toBe(200); // reads pass
    expect((await fetch(`http://127.0.0.1:${simPort}/sim/devices/dev-1`)).status).toBe(200);

    // No published default: this installation's own secrets, generated into DATA_DIR, owner-only.
    const secretFile = (name: string) => path.join(dataDir, name);
    for (const name of ['sandbox-notify-secret', 'secrets-key']) expect(fs.statSync(secretFile(name)).mode & 0o777).toBe(0o600);
    const notifySecret = fs.readFileSync(secretFile('sandbox-notify-secret'), 'utf8').trim();
    const secretsKey = fs.readFileSync(secretFile('secrets-key'), 'utf8').trim();
    const body = JSON.stringify({ deviceId: 'dev-1', acquirerRef: 'sbx_unknown', event: 'CAPTURED' });
    const notify = (secret: string) =>
      fetch(`http://127.0.0.1:${port}/internal/acquirer/notifications`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Sandbox-Signature': signSandboxBody(body, secret) },
        body,
      });
    expect((await notify(notifySecret)).status).toBe(202);
    expect((await notify('sandbox-notify-secret-change-me')).status).toBe(401);

    // Write something through the embedded database while it runs.
    const url = `postgresql://postgres:postgres@127.0.0.1:${dbPort}/postgres?sslmode=disable`;
    let pg = new Client({ connectionString: url });
    await pg.connect();
    await pg.query(`INSERT INTO "Merchant" ("id","externalId","name","updatedAt") VALUES ($1,$2,'Kept',now())`, [crypto.randomUUID(), `kept-${port}`]);
    await pg.end();

    expect(await stop(first.child)).toBe(0);
    expect(processesUsing(dataDir)).toEqual([]); // no orphans

    const second = await start(env);
    pg = new Client({ connectionString: url });
    await pg.connect();
    const rows = await pg.query(`SELECT "name" FROM "Merchant" WHERE "externalId" = $1`, [`kept-${port}`]);
    await pg.end();
    expect(rows.rows).toEqual([{ name: 'Kept' }]);
    // The same secrets after a restart.
    expect(fs.readFileSync(secretFile('sandbox-notify-secret'), 'utf8').trim()).toBe(notifySecret);
    expect(fs.readFileSync(secretFile('secrets-key'), 'utf8').trim()).toBe(secretsKey);
    expect(await stop(second.child)).toBe(0);
    expect(processesUsing(dataDir)).toEqual([]);
  },
  180_000,
);

embeddedLane('refuses a production start without its own secrets, naming them', async () => {
  const err = await start({ NODE_ENV: 'production', DATA_DIR: path.join(process.env.TEST_ROOT!, `npm-start-prod-${Date.now()}`) }).catch((e: Error) => e);
  expect(String(err)).toMatch(/SECRETS_KEY: must be set in production/);
  expect(String(err)).toMatch(/SANDBOX_NOTIFY_SECRET: must be set in production/);
});

embeddedLane('refuses to start on a bad variable, naming it', async () => {
  const err = await start({ PORT: 'eighty' }).catch((e: Error) => e);
  expect(String(err)).toMatch(/PORT: must be a number/);
});
