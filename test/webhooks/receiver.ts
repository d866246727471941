import type http from 'node:http';
import { LoopbackReceiver } from '../support/loopbackReceiver';

/** One request as a merchant's receiver saw it: headers and the exact bytes of the body. */
export interface Received {
  headers: http.IncomingHttpHeaders;
  rawBody: Buffer;
  body: any;
  /** The status the receiver answered. */
  answered: number;
}

/**
 * A real webhook receiver on loopback that keeps every request. `respond` decides the status of
 * each request (default 200). It can go down and come back on the same port.
 */
export class TestReceiver {
  readonly received: Received[] = [];
  respond: (req: { headers: http.IncomingHttpHeaders; rawBody: Buffer; index: number }) => number = () => 200;
  private readonly loopback = new LoopbackReceiver(({ headers, rawBody }) => {
    const status = this.respond({ headers, rawBody, index: this.received.length });
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      body = undefined;
    }
    this.received.push({ headers, rawBody, body, answered: status });
    return { status, body: status >= 200 && status < 300 ? 'ok' : `failing on purpose with ${status}` };
  });

  get url(): string {
    return this.loopback.url;
  }

  get port(): number {
    return this.loopback.port;
  }

  async start(): Promise<this> {
    await this.loopback.start();
    return this;
  }

  /** Closes the port and drops every open connection, as a receiver that went down. */
  stop(): Promise<void> {
    return this.loopback.stop();
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
