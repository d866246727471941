/**
 * The fuzz run's webhook receiver: a loopback server that answers 204 to every delivery, so
 * deliveries succeed at the first attempt (no retries writing in the background) and no delivery
 * ever leaves the machine (the hooks point every webhook URL the fuzzer sends at it).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Receiver {
  url: string;
  deliveries(): number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  let count = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    deliveries: () => count,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
