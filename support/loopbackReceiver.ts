import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as it reached the receiver: headers and the exact bytes of the body. */
export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders;
  rawBody: Buffer;
}

/** What the receiver answers: a status, and optionally a text body. */
export type ReceiverAnswer = number | { status: number; body?: string };

/**
 * A real HTTP receiver on loopback (http://127.0.0.1:<port>/hooks), as a merchant's webhook
 * endpoint: used by the tests, the chaos suite and the benchmark. It can go down (port closed,
 * open connections dropped) and come back on the same port. What it answers: the function given,
 * or a subclass's `answer`.
 */
export class LoopbackReceiver {
  port = 0;
  private server?: http.Server;

  constructor(private readonly handler: (req: ReceivedRequest) => ReceiverAnswer = () => 204) {}

  protected answer(req: ReceivedRequest): ReceiverAnswer {
    return this.handler(req);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async start(): Promise<this> {
    if (this.server) return this;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const answer = this.answer({ headers: req.headers, rawBody: Buffer.concat(chunks) });
        const { status, body } = typeof answer === 'number' ? { status: answer, body: undefined } : answer;
        res.writeHead(status, { 'Content-Type': 'text/plain' }).end(body);
      });
    });
    server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Down: closes the port and drops every open connection. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
