import net from 'node:net';

/**
 * A TCP load balancer on one address in front of several servers of the same service (the
 * frontends of a Temporal cluster, the API processes of a chaos run): each new connection goes to
 * the next server in turn and, when that one refuses it, to the one after, so a client that
 * reconnects after its server died lands on a live one. It is what a load balancer does in a
 * deployment; the SDKs and the POS take one address. Bytes are passed through untouched (gRPC over
 * HTTP/2, HTTP/1.1): a connection lives and dies with its server's.
 */
export class FailoverProxy {
  private server?: net.Server;
  private next = 0;
  private readonly sockets = new Set<net.Socket>();

  constructor(
    private readonly upstreams: { host: string; port: number }[],
    private readonly connectTimeoutMs = 2_000,
  ) {
    if (upstreams.length === 0) throw new Error('FailoverProxy: no upstream');
  }

  /** Listens on host:port (0: a free port); resolves with the port. */
  async listen(port: number, host = '127.0.0.1'): Promise<number> {
    const server = net.createServer((client) => this.accept(client));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return (server.address() as net.AddressInfo).port;
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
  }

  private accept(client: net.Socket): void {
    this.track(client);
    client.pause();
    client.on('error', () => client.destroy());
    const first = this.next;
    this.next = (this.next + 1) % this.upstreams.length;
    this.connect(client, first, 0);
  }

  /** Tries upstream `index`, then the following ones; drops the client when none answers. */
  private connect(client: net.Socket, index: number, tried: number): void {
    if (client.destroyed) return;
    if (tried >= this.upstreams.length) {
      client.destroy();
      return;
    }
    const target = this.upstreams[index % this.upstreams.length]!;
    const upstream = net.connect({ host: target.host, port: target.port });
    this.track(upstream);
    upstream.setTimeout(this.connectTimeoutMs);
    const failed = (): void => {
      upstream.destroy();
      this.connect(client, index + 1, tried + 1);
    };
    upstream.once('timeout', failed);
    upstream.once('error', failed);
    upstream.once('connect', () => {
      upstream.setTimeout(0);
      upstream.removeListener('timeout', failed);
      upstream.removeListener('error', failed);
      upstream.on('error', () => upstream.destroy());
      // Either side closing ends the pair: a client must see its server's death to reconnect.
      upstream.once('close', () => client.destroy());
      client.once('close', () => upstream.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  }

  /** Stops listening and drops every connection. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
