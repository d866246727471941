import net from 'node:net';
import { FailoverProxy } from '../../scripts/temporal-server/proxy';

/** A server that answers every line with its own name, and can be closed with its connections. */
async function namedServer(name: string): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => socket.write(`${name}\n`));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Connects through the proxy, says hello, resolves with the answer and the open socket. */
async function ask(port: number): Promise<{ answer: string; socket: net.Socket }> {
  const socket = net.connect({ host: '127.0.0.1', port });
  const answer = await new Promise<string>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('close', () => reject(new Error('closed before an answer')));
    socket.once('data', (d) => resolve(d.toString().trim()));
    socket.write('hello\n');
  });
  return { answer, socket };
}

const closed = (socket: net.Socket): Promise<void> => new Promise((resolve) => (socket.destroyed ? resolve() : socket.once('close', () => resolve())));

describe("FailoverProxy (the clients' one address in front of a cluster)", () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function setUp(names: string[]) {
    const servers = await Promise.all(names.map(namedServer));
    const proxy = new FailoverProxy(servers.map((s) => ({ host: '127.0.0.1', port: s.port })));
    const port = await proxy.listen(0);
    cleanups.push(() => proxy.close());
    for (const s of servers) cleanups.push(() => s.close().catch(() => undefined));
    return { servers, port };
  }

  it('spreads new connections over the servers in turn', async () => {
    const { port } = await setUp(['a', 'b']);
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const { answer, socket } = await ask(port);
      answers.push(answer);
      socket.destroy();
    }
    expect(answers).toEqual(['a', 'b', 'a', 'b']);
  });

  it('sends every connection to the live server while one is down, and closes the clients of the dead one', async () => {
    const { servers, port } = await setUp(['a', 'b']);
    const first = await ask(port);
    expect(first.answer).toBe('a');
    await servers[0]!.close();
    // The client of the dead server sees its connection end, so it reconnects.
    await closed(first.socket);
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const { answer, socket } = await ask(port);
      answers.push(answer);
      socket.destroy();
    }
    expect(answers).toEqual(['b', 'b', 'b']);
  });

  it('drops a connection when no server answers', async () => {
    const { servers, port } = await setUp(['a']);
    await servers[0]!.close();
    await expect(ask(port)).rejects.toThrow(/closed before an answer|ECONNRESET/);
  });
});
