import type http from 'node:http';
import { LoopbackReceiver, type ReceivedRequest, type ReceiverAnswer } from '../../support/loopbackReceiver';

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
export class TestReceiver extends LoopbackReceiver {
  readonly received: Received[] = [];
  respond: (req: { headers: http.IncomingHttpHeaders; rawBody: Buffer; index: number }) => number = () => 200;

  protected override answer({ headers, rawBody }: ReceivedRequest): ReceiverAnswer {
    const status = this.respond({ headers, rawBody, index: this.received.length });
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      body = undefined;
    }
    this.received.push({ headers, rawBody, body, answered: status });
    return { status, body: status >= 200 && status < 300 ? 'ok' : `failing on purpose with ${status}` };
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
