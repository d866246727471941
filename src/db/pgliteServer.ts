import net from 'node:net';
import type { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketHandler } from '@electric-sql/pglite-socket';

/**
 * Serves one PGlite database to several PostgreSQL clients over TCP.
 *
 * PGlite has a single session. pglite-socket's own server frames the wire protocol well but
 * schedules each message on its own, so under concurrency it interleaves the Parse/Bind/Execute
 * messages of different connections ("bind message supplies 2 parameters, but prepared statement
 * requires 3") and stops for good after one failed message. This scheduler gives one connection
 * the session from its first message until the end of its request cycle (Sync or a simple Query)
 * with no transaction open, so every cycle and every transaction runs alone.
 */
interface Pending {
  handlerId: number;
  message: Uint8Array;
  onData: (data: Uint8Array) => void;
  resolve: (bytes: number) => void;
  reject: (err: unknown) => void;
}

const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'

export class ExclusiveSessionQueue {
  private readonly queue: Pending[] = [];
  private owner: number | null = null;
  private running = false;

  constructor(private readonly db: PGlite) {}

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      this.queue.push({ handlerId, message, onData, resolve, reject });
      void this.run();
    });
  }

  getQueueLength(): number {
    return this.queue.length;
  }

  clearQueueForHandler(handlerId: number): void {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      if (this.queue[i]!.handlerId === handlerId) this.queue.splice(i, 1)[0]!.reject(new Error('connection closed'));
    }
  }

  /** A client that leaves mid-cycle or mid-transaction must not keep the session. */
  async clearTransactionIfNeeded(handlerId: number): Promise<void> {
    if (this.owner !== handlerId) return;
    if (this.db.isInTransaction()) await this.db.exec('ROLLBACK').catch(() => undefined);
    this.owner = null;
    void this.run();
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (;;) {
        const index = this.owner === null ? 0 : this.queue.findIndex((p) => p.handlerId === this.owner);
        if (index < 0 || this.queue.length === 0) return; // the owner's next message has not arrived yet
        const next = this.queue.splice(index, 1)[0]!;
        this.owner = next.handlerId;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(next.message, {
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                next.onData(data);
              },
            }),
          );
          next.resolve(bytes);
        } catch (err) {
          next.reject(err);
        }
        const type = next.message[0];
        const endOfCycle = type === SYNC || type === QUERY || type === TERMINATE || type === 0; // 0: startup packet
        if (endOfCycle && !this.db.isInTransaction()) this.owner = null;
      }
    } finally {
      this.running = false;
    }
  }
}

export async function servePglite(db: PGlite, host: string, port: number): Promise<{ close(): Promise<void> }> {
  await db.waitReady;
  const queue = new ExclusiveSessionQueue(db);
  const handlers = new Set<PGLiteSocketHandler>();
  const server = net.createServer((socket) => {
    const handler = new PGLiteSocketHandler({ queryQueue: queue as never, closeOnDetach: true });
    handlers.add(handler);
    const forget = (): void => void handlers.delete(handler);
    handler.addEventListener('close', forget);
    handler.addEventListener('error', forget);
    void handler.attach(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    close: async () => {
      for (const h of handlers) await h.detach(true).catch(() => undefined);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
