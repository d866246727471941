import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { claim } from '../../src/process/freePort';

/**
 * Ports handed out by freePort are claimed across processes (src/process/freePort.ts): steps that
 * start side by side never get the same port before a child binds it.
 */
const run = promisify(execFile);
const MINUTE = 60_000;
/** Ports above freePort's range, so these claims never stand in the way of a real run's. */
const testPort = () => crypto.randomInt(40_000, 60_000);

it('two processes drawing 200 ports each at the same moment never get the same port', async () => {
  const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'isp-ports-test-')), 'draw.ts');
  const module = path.resolve(__dirname, '../../src/process/freePort.ts');
  fs.writeFileSync(
    script,
    `import { freePort } from ${JSON.stringify(module)};\n` +
      `(async () => { const ports = []; for (let i = 0; i < 200; i++) ports.push(await freePort()); process.stdout.write(JSON.stringify(ports)); })();\n`,
  );
  const draw = () =>
    run(process.execPath, ['--import', 'tsx', script], { cwd: path.resolve(__dirname, '../..') }).then((r) => JSON.parse(r.stdout) as number[]);
  const [a, b] = await Promise.all([draw(), draw()]);
  // Unclaimed, 400 draws from 12,768 ports would share one with a probability above 99 %.
  expect(new Set([...a, ...b]).size).toBe(400);
}, 60_000);

it('a claimed port is not claimed again within its minute, nor across the turn of the minute', () => {
  const port = testPort();
  const endOfMinute = Math.floor(Date.now() / MINUTE) * MINUTE + MINUTE - 1;
  expect(claim(port, endOfMinute)).toBe(true);
  expect(claim(port, endOfMinute)).toBe(false);
  expect(claim(port, endOfMinute + 2)).toBe(false); // the next minute sees the claim of the one before
});

it('a claim two minutes old no longer counts', () => {
  const port = testPort();
  const now = Date.now();
  expect(claim(port, now - 2 * MINUTE)).toBe(true);
  expect(claim(port, now)).toBe(true);
});
