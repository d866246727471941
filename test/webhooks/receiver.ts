import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a merchant's receiver saw it: headers and the exact bytes of the body. */
export interface Received {
  headers: http.IncomingHttpHeaders;
  rawBody: Buffer;
  body: any;
  /** The status the receiver answered. */
  answered: number;
}

/**
 * A real webhook receiver on loopback (http://127.0.0.1:<port>). `respond` decides the status of
 * each request (default 200). It can go down (port closed, connections dropped) and come back on
 * the same port.
 */
export class TestReceiver {
  readonly received: Received[] = [];
  respond: (req: { headers: http.IncomingHttpHeaders; rawBody: Buffer; index: number }) => number = () => 200;
  private server?: http.Server;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async start(): Promise<this> {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks);
        const status = this.respond({ headers: req.headers, rawBody, index: this.received.length });
        let body: unknown;
        try {
          body = JSON.parse(rawBody.toString('utf8'));
        } catch {
          body = undefined;
        }
        this.received.push({ headers: req.headers, rawBody, body, answered: status });
        res.writeHead(status, { 'Content-Type': 'text/plain' });
        res.end(status >= 200 && status < 300 ? 'ok' : `failing on purpose with ${status}`);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Closes the port and drops every open connection, as a receiver that went down. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  /** Requests that were answered 2xx. */
  delivered(): Received[] {
    return this.received.filter((r) => r.answered >= 200 && r.answered < 300);
  }

  /** Requests for one event id. */
  forEvent(eventId: string): Received[] {
    return this.received.filter((r) => r.headers['x-webhook-event-id'] === eventId);
  }
}

/** Polls until `check` returns a value other than undefined/false, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined | false> | T | undefined | false, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value as T;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ''}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
