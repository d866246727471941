import net from 'node:net';
import { sendWebhook } from '../../src/webhooks/send';
import { checkWebhookUrl, guardedLookup, refusedAddressReason } from '../../src/webhooks/urlPolicy';

/** Issue 15 point 6 (first half): IPv6 spellings of loopback and private addresses are refused. */
it.each(['https://[::7f00:1]/', 'https://[::a00:1]/hook', 'https://[::c0a8:101]/', 'https://[::ffff:127.0.0.1]/', 'https://[2002:7f00:1::]/'])(
  'refuses %s',
  async (url) => {
    await expect(checkWebhookUrl(url, false)).rejects.toThrow(/must not point to/);
  },
);

it('still accepts global unicast IPv6 and public IPv4 literals', async () => {
  await expect(checkWebhookUrl('https://[2001:4860:4860::8888]/hook', false)).resolves.toBeInstanceOf(URL);
  await expect(checkWebhookUrl('https://8.8.8.8/hook', false)).resolves.toBeInstanceOf(URL);
  expect(refusedAddressReason('::7f00:1')).toBe('::7f00:1 is a non-global IPv6 address');
});

/**
 * Issue 15 point 6 (second half): the address connected to is the address checked. A name may
 * answer a public address to the URL check and a loopback one a moment later to the send (DNS
 * rebinding); every address is checked again where the connection is made.
 */
describe('a name that rebinds between the check and the send', () => {
  let listener: net.Server;
  let port: number;
  let connections = 0;
  beforeAll(async () => {
    listener = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  /** Answers a public address to the first question, then `then`. */
  const rebinding = (then: string[]) => {
    let asked = 0;
    return async () => (asked++ === 0 ? ['93.184.215.14'] : then);
  };
  const send = (url: string, resolve: (host: string) => Promise<string[]>) =>
    sendWebhook({ url, body: Buffer.from('{}'), eventId: 'evt-1', eventType: 'PAYMENT_CAPTURED', secret: 's', timeoutMs: 5000, allowInsecure: false, resolve });

  it.each([['127.0.0.1'], ['::ffff:127.0.0.1'], ['::1'], ['93.184.215.14', '10.0.0.7']].map((then) => [then.join(' and '), then] as const))(
    'is refused at connect when it resolves to %s at send time: a failed attempt with the reason, no request reaches the listener',
    async (_answer, then) => {
      const before = connections;
      // localhost: without the check at connect, the system resolver would lead the send to the listener.
      const outcome = await send(`https://localhost:${port}/hooks`, rebinding(then));
      expect(outcome).toMatchObject({ delivered: false, responseStatus: null, responseBody: null, retryable: true });
      expect(outcome.error).toMatch(/^refused at connect: host localhost resolves to an? (loopback|private) address \(/);
      expect(connections).toBe(before);
    },
  );

  it('checks every address of the answer, in the shape the connection asks for', async () => {
    const lookup = guardedLookup(async () => ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c']);
    const ask = (options: object) => new Promise<unknown[]>((resolve) => (lookup as any)('example.com', options, (...args: unknown[]) => resolve(args)));
    expect(await ask({ all: true })).toEqual([
      null,
      [
        { address: '93.184.215.14', family: 4 },
        { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
      ],
    ]);
    expect(await ask({})).toEqual([null, '93.184.215.14', 4]);
    expect(await ask({ family: 6 })).toEqual([null, '2606:2800:21f:cb07:6820:80da:af6b:8b2c', 6]);
    const refused = await new Promise<unknown[]>((resolve) =>
      (guardedLookup(async () => ['93.184.215.14', '169.254.169.254']) as any)('example.com', { all: true }, (...args: unknown[]) => resolve(args)),
    );
    expect((refused[0] as Error).message).toBe('refused at connect: host example.com resolves to a link-local address (169.254.169.254)');
  });
});
