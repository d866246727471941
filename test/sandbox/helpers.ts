import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HttpAcquirer } from '../../src/acquirer/httpAdapter';
import type { SendBillRequest, SendBillResult } from '../../src/acquirer/port';
import { startSandboxServer } from '../../src/acquirer/sandbox/server';

/** Shared by the sandbox tests: a real sandbox server on port 0 with its own temp DATA_DIR. */
export const SECRET = 'test-notify-secret-0123456789';
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

export interface Sandbox {
  url: string;
  dataDir: string;
  close(): Promise<void>;
  restart(): Promise<void>;
}

export function tempDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'sandbox-test-'));
}

export async function startSandbox(opts: { dataDir?: string; notifyUrl?: string } = {}): Promise<Sandbox> {
  const dataDir = opts.dataDir ?? tempDir();
  const start = () => startSandboxServer({ host: '127.0.0.1', port: 0, dataDir, notifyUrl: opts.notifyUrl, notifySecret: SECRET, logger: silent });
  let server = await start();
  const sb: Sandbox = {
    url: server.url,
    dataDir,
    close: () => server.close(),
    async restart() {
      await server.close();
      server = await start();
      sb.url = server.url;
    },
  };
  return sb;
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** A JSON call to the sandbox: status and parsed body. */
export async function call(sb: Sandbox, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(sb.url + path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

let seq = 0;
export function bill(deviceId: string, over: Partial<SendBillRequest> = {}): SendBillRequest {
  seq += 1;
  return {
    deviceId,
    paymentId: `pay-${seq}`,
    pspReference: `PSP${seq}`,
    amount: '12.50',
    currency: 'EUR',
    reference: `order-${seq}`,
    modes: ['CARD', 'QR_CODE'],
    timeoutSeconds: 300,
    ...over,
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let devSeq = 0;
/** A fresh device id per test, so tests sharing a server do not meet. */
export const newDevice = () => `dev-${process.pid}-${++devSeq}`;

/**
 * A sandbox server for the enclosing describe block, with an HttpAcquirer pointed at it: started
 * before its tests, closed and its DATA_DIR removed after. `use` receives both once started.
 */
export function withSandbox(use: (started: { sb: Sandbox; acquirer: HttpAcquirer }) => void, opts: { timeoutMs?: number } = {}): void {
  let sb: Sandbox | undefined;
  beforeAll(async () => {
    sb = await startSandbox();
    use({ sb, acquirer: new HttpAcquirer(sb.url, { timeoutMs: opts.timeoutMs ?? 2000 }) });
  });
  afterAll(async () => {
    await sb?.close();
    if (sb) removeDir(sb.dataDir);
  });
}

/** The acquirer reference of a bill that reached the device; anything else fails the test. */
export const onDevice = (r: SendBillResult): string => {
  if (r.outcome !== 'ON_DEVICE') throw new Error(`expected ON_DEVICE, got ${JSON.stringify(r)}`);
  return r.acquirerRef;
};
