import crypto from 'node:crypto';
import net from 'node:net';

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
    if ((await bound(port, host)) !== undefined) return port;
  }
  return (await bound(0, host))!; // all taken: whatever the kernel gives
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
