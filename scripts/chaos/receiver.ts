import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '../../src/webhooks/signature';

/**
 * The merchant's webhook receiver, as docs/webhooks.md tells a merchant to write one: loopback
 * only, verifies the signature over the raw bytes, answers 2xx at once, deduplicates on eventId.
 * It can go down (port closed, connections dropped) and come back on the same port.
 */
export interface ReceivedEvent {
  eventId: string;
  eventType: string;
  pspReference: string | null;
  status: string | null;
  /** First arrival (ms since epoch). */
  firstAt: number;
  /** How many times it arrived (duplicates are allowed: a lost 2xx is retried). */
  deliveries: number;
}

export class ChaosReceiver {
  /** eventId -> the event, first arrival. */
  readonly events = new Map<string, ReceivedEvent>();
  /** eventIds that arrived with different payments (pspReference) or types: must never happen. */
  readonly conflicts: { eventId: string; first: string; other: string }[] = [];
  badSignatures = 0;
  requests = 0;
  secret = '';
  port = 0;
  private server?: http.Server;

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  get up(): boolean {
    return !!this.server;
  }

  async start(): Promise<void> {
    if (this.server) return;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.requests += 1;
        const raw = Buffer.concat(chunks);
        if (!verifyWebhookSignature(raw, req.headers['x-webhook-signature'] as string | undefined, this.secret)) {
          this.badSignatures += 1;
          res.writeHead(401).end('bad signature');
          return;
        }
        res.writeHead(204).end();
        this.record(raw);
      });
    });
    server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  private record(raw: Buffer): void {
    let body: { eventId?: string; eventType?: string; data?: { pspReference?: string; status?: string } };
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return;
    }
    const eventId = String(body.eventId ?? '');
    const key = `${body.eventType}:${body.data?.pspReference ?? ''}`;
    const seen = this.events.get(eventId);
    if (seen) {
      seen.deliveries += 1;
      const seenKey = `${seen.eventType}:${seen.pspReference ?? ''}`;
      if (seenKey !== key) this.conflicts.push({ eventId, first: seenKey, other: key });
      return;
    }
    this.events.set(eventId, {
      eventId,
      eventType: String(body.eventType ?? ''),
      pspReference: body.data?.pspReference ?? null,
      status: body.data?.status ?? null,
      firstAt: Date.now(),
      deliveries: 1,
    });
  }

  /** Down: the port closes and open connections are dropped. */
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
