import fs from 'node:fs';
import path from 'node:path';
import { ManagedChild } from '../process/child';
import { PAYMENT_SEARCH_ATTRIBUTES } from '../../core/searchAttributes';
import { findTemporalCli } from './cliBinary';
import { devServerDynamicConfigArgs } from './dynamicConfig';

export interface DevServerOptions {
  host: string;
  port: number;
  uiPort?: number; // omitted: headless
  /** SQLite file for persistence; omitted: in memory. */
  dbFile?: string;
  namespace: string;
}

/**
 * The arguments of `temporal server start-dev` for this service, shared by `npm start`, the tests
 * and the chaos stack, so every one runs Temporal the same way.
 */
export function temporalDevServerArgs(opts: DevServerOptions): string[] {
  const args = ['server', 'start-dev', '--ip', opts.host, '--port', String(opts.port), '--namespace', opts.namespace, '--log-level', 'warn'];
  if (opts.uiPort) args.push('--ui-port', String(opts.uiPort), '--ui-ip', opts.host);
  else args.push('--headless');
  if (opts.dbFile) {
    // WAL with normal sync: a committed transaction survives a crash of the process (the point of
    // persistence here) without an fsync per history write, which made every workflow task slow.
    args.push('--db-filename', opts.dbFile, '--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal');
  }
  args.push(...devServerDynamicConfigArgs());
  for (const attr of PAYMENT_SEARCH_ATTRIBUTES) args.push('--search-attribute', `${attr.name}=Keyword`);
  return args;
}

/** Starts `temporal server start-dev` and resolves once its frontend accepts connections. */
export async function startTemporalDevServer(opts: DevServerOptions): Promise<ManagedChild> {
  if (opts.dbFile) fs.mkdirSync(path.dirname(opts.dbFile), { recursive: true });
  const child = new ManagedChild('temporal dev server', findTemporalCli(), temporalDevServerArgs(opts));
  await waitForPort(opts.host, opts.port, child, 60_000);
  return child;
}

async function waitForPort(host: string, port: number, child: ManagedChild, timeoutMs: number): Promise<void> {
  const net = await import('node:net');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!child.running) throw new Error(`temporal dev server exited:\n${child.recentLines.join('\n')}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect({ host, port }, () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`temporal dev server did not listen on ${host}:${port} within ${timeoutMs} ms:\n${child.recentLines.join('\n')}`);
}
