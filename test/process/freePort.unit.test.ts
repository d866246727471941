import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { claim } from '../../src/process/freePort';
import { freeServerPort } from '../../scripts/temporal-server/server';

/**
 * Ports handed out by freePort are claimed across processes (src/process/freePort.ts): steps that
 * start side by side never get the same port before a child binds it.
 */
const run = promisify(execFile);
const MINUTE = 60_000;
/** Ports above freePort's range, so these claims never stand in the way of a real run's. */
const testPort = () => crypto.randomInt(40_000, 60_000);

/** A child process's `count` ports from freePort, asked for all at once or one after the other. */
async function drawInChild(count: number, opts: { atOnce: boolean; tmpdir?: string }): Promise<number[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'isp-ports-test-'));
  const script = path.join(dir, 'draw.ts');
  const module = path.resolve(__dirname, '../../src/process/freePort.ts');
  const draws = opts.atOnce
    ? `Promise.all(Array.from({ length: ${count} }, () => freePort()))`
    : `(async () => { const ports = []; for (let i = 0; i < ${count}; i++) ports.push(await freePort()); return ports; })()`;
  // TMPDIR set in the child, not on its command line: tsx keeps its cache there.
  const tmpdir = opts.tmpdir ? `process.env.TMPDIR = ${JSON.stringify(opts.tmpdir)};\n` : '';
  fs.writeFileSync(
    script,
    `${tmpdir}const { freePort } = require(${JSON.stringify(module)});\n${draws}.then((ports: number[]) => process.stdout.write(JSON.stringify(ports)));\n`,
  );
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', script], { cwd: path.resolve(__dirname, '../..') });
    return JSON.parse(stdout) as number[];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

it('two processes asking for 300 ports each, all at once, never get the same port', async () => {
  const [a, b] = await Promise.all([drawInChild(300, { atOnce: true }), drawInChild(300, { atOnce: true })]);
  expect(a).toHaveLength(300);
  // Unclaimed, two draws of 300 from 12,768 ports would share one with a probability above 99.9 %.
  expect(new Set([...a, ...b]).size).toBe(600);
}, 60_000);

it('one process never hands a port out twice, even where the claims cannot be written', async () => {
  // TMPDIR a file: the claims' folder cannot be made under it, so the process has only its own memory.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'isp-ports-test-'));
  const file = path.join(dir, 'not-a-folder');
  fs.writeFileSync(file, '');
  const ports = await drawInChild(500, { atOnce: false, tmpdir: file }).finally(() => fs.rmSync(dir, { recursive: true, force: true }));
  // With the bind check alone, 500 draws from 12,768 ports repeat one with a probability above 99.99 %.
  expect(new Set(ports).size).toBe(500);
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

it("the Temporal server's ports (freeServerPort, below 32768) are claimed like freePort's", async () => {
  const port = await freeServerPort();
  expect(port).toBeLessThanOrEqual(32_767);
  expect(claim(port)).toBe(false);
});
