import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * Ports below Linux's ephemeral range (32768-60999): the kernel never hands these out to outgoing
 * connections, so a port found free here stays free until a child binds it, unless another caller
 * of freePort drew the same one of 12,000.
 */
const LOW = 20_000;
const HIGH = 32_767;

/** A loopback port that was free a moment ago (for children that need a port on their command line). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = crypto.randomInt(LOW, HIGH + 1);
    if (recent.has(port) || !claim(port)) continue;
    remember(port);
    if ((await bound(port, host)) !== undefined) return port;
  }
  return (await bound(0, host))!; // all taken: whatever the kernel gives
}

/**
 * Ports this process handed out in the last two minutes, never handed out again meanwhile. The
 * claim files below already keep them apart; this holds too where they cannot be written (a
 * read-only or foreign temporary folder), which would otherwise leave the bind check alone, and a
 * port not yet bound by its child passes that check again.
 */
const recent = new Set<number>();
function remember(port: number): void {
  recent.add(port);
  setTimeout(() => recent.delete(port), 2 * 60_000).unref(); // unref: never keeps a process alive
}

/**
 * Claims across processes: a port handed out is not handed out again by any process of this
 * machine for one to two minutes, time enough for its child to bind it. Steps that start side by
 * side (CI's fuzz run, browser tests and fault suite) each draw several ports, and one drew a port
 * another had drawn and not yet bound ("address already in use"). A claim is a file named by the
 * port and the minute, created exclusively; a claim of the minute before or after counts too, so
 * claims expire without anyone deleting a live one.
 */
const CLAIMS = path.join(os.tmpdir(), 'isp-ports');
const MINUTE = 60_000;
let swept = false;

/** True when this process now holds the port's claim (or claims cannot be written here: the bind check alone, as before). */
export function claim(port: number, now = Date.now()): boolean {
  const minute = Math.floor(now / MINUTE);
  const marker = (m: number) => path.join(CLAIMS, `${port}-${m}`);
  try {
    fs.mkdirSync(CLAIMS, { recursive: true });
    if (!swept) sweep(minute);
    fs.writeFileSync(marker(minute), String(process.pid), { flag: 'wx' });
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'EEXIST';
  }
  // Created first, looked around second: of two claims across a minute's turn, at least one sees the other and yields.
  if (fs.existsSync(marker(minute - 1)) || fs.existsSync(marker(minute + 1))) {
    fs.rmSync(marker(minute), { force: true });
    return false;
  }
  return true;
}

/** Removes claims older than two minutes, once per process (they no longer count). */
function sweep(minute: number): void {
  swept = true;
  for (const name of fs.readdirSync(CLAIMS)) {
    const at = Number(name.split('-')[1]);
    if (Number.isFinite(at) && at < minute - 2) fs.rmSync(path.join(CLAIMS, name), { force: true });
  }
}

/** Binds `port` (0: any) for a moment; the port it got, or undefined when it was taken. */
function bound(port: number, host: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' || err.code === 'EACCES' ? resolve(undefined) : reject(err)));
    server.listen(port, host, () => {
      const { port: got } = server.address() as net.AddressInfo;
      server.close(() => resolve(got));
    });
  });
}
