import { generateApiKey } from '../../src/auth/apiKeys';
import { createMerchantWithKey } from '../support/fixtures';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, TEST_SECRETS_KEY, type TestStack } from '../support/stack';
import { Keyring } from '../../src/secrets/keyring';
import { eventually, TestReceiver } from './receiver';

/**
 * Webhook configuration (docs/webhooks.md, "The destination"): the records, the secret only where promised,
 * validation, another business's destination, and the URL rules at configuration and at delivery
 * (a second stack runs without WEBHOOK_ALLOW_INSECURE). No traffic leaves loopback.
 */
let stack: TestStack;
let secure: TestStack;
/** The signing secret as kept at rest (sealed under SECRETS_KEY, docs/security.md), opened. */
const storedSecret = async (id: string): Promise<string> =>
  Keyring.fromText(TEST_SECRETS_KEY).open((await stack.db.webhookConfig.findUniqueOrThrow({ where: { id } })).secret, 'webhook');
beforeAll(async () => {
  [stack, secure] = await Promise.all([
    startTestStack(),
    startTestStack({
      WEBHOOK_ALLOW_INSECURE: 'false',
      WEBHOOK_RETRY_INITIAL_SECONDS: '0.2',
      WEBHOOK_RETRY_MAX_INTERVAL_SECONDS: '0.4',
      WEBHOOK_RETRY_MAX_AGE_HOURS: '0.0005', // 1.8 s
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([stack?.stop(), secure?.stop()]);
});

const CONFIGS = '/api/webhooks/configs';
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function countWritten(merchantId: string) {
  const [configs, audits] = await Promise.all([stack.db.webhookConfig.count({ where: { merchantId } }), stack.db.auditLog.count({ where: { merchantId } })]);
  return { configs, audits };
}

describe('webhook configuration records', () => {
  it('creates a destination and shows the signing secret only on create and regenerate-key', async () => {
    const { key, merchant } = await createMerchantWithKey(stack.db);
    const created = await call(stack.apiUrl, 'POST', CONFIGS, {
      key,
      body: { url: 'http://127.0.0.1:9/hooks', description: 'till server', eventTypes: ['PAYMENT_CAPTURED', 'PAYMENT_REFUSED'] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      url: 'http://127.0.0.1:9/hooks',
      description: 'till server',
      eventTypes: ['PAYMENT_CAPTURED', 'PAYMENT_REFUSED'],
      mode: 'live',
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{40}$/),
    });
    const id = created.body.id as string;

    const one = await call(stack.apiUrl, 'GET', `${CONFIGS}/${id}`, { key });
    expect(one.status).toBe(200);
    const { secret: _secret, ...withoutSecret } = created.body;
    expect(one.body).toEqual(withoutSecret);

    const list = await call(stack.apiUrl, 'GET', CONFIGS, { key });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([withoutSecret]);

    const rotated = await call(stack.apiUrl, 'POST', `${CONFIGS}/${id}/regenerate-key`, { key });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ id, url: 'http://127.0.0.1:9/hooks', secret: expect.stringMatching(/^whsec_[0-9A-Za-z]{40}$/) });
    expect(rotated.body.secret).not.toBe(created.body.secret);
    expect(await storedSecret(id)).toBe(rotated.body.secret);
    expect((await call(stack.apiUrl, 'GET', `${CONFIGS}/${id}`, { key })).body.secret).toBeUndefined();

    const actions = (await stack.db.auditLog.findMany({ where: { merchantId: merchant.id }, orderBy: { id: 'asc' } })).map((a) => a.action);
    expect(actions).toEqual(['WEBHOOK_CONFIG_CREATED', 'WEBHOOK_SECRET_ROTATED']);
    const details = JSON.stringify((await stack.db.auditLog.findMany({ where: { merchantId: merchant.id } })).map((a) => a.details));
    expect(details).not.toContain(created.body.secret);
    expect(details).not.toContain(rotated.body.secret);
  });

  it('treats omitted or empty eventTypes as every event, and drops duplicates', async () => {
    const { key } = await createMerchantWithKey(stack.db);
    const omitted = await call(stack.apiUrl, 'POST', CONFIGS, { key, body: { url: 'http://127.0.0.1:9/a' } });
    expect(omitted.status).toBe(201);
    expect(omitted.body).toMatchObject({ eventTypes: [], description: null });
    const dupes = await call(stack.apiUrl, 'POST', CONFIGS, { key, body: { url: 'http://127.0.0.1:9/b', eventTypes: ['TEST', 'TEST', 'PAYMENT_ERROR'] } });
    expect(dupes.status).toBe(201);
    expect(dupes.body.eventTypes).toEqual(['TEST', 'PAYMENT_ERROR']);
  });

  it('updates url, description and event selection; fields left out stay', async () => {
    const { key } = await createMerchantWithKey(stack.db);
    const created = (await call(stack.apiUrl, 'POST', CONFIGS, { key, body: { url: 'http://127.0.0.1:9/a', description: 'first', eventTypes: ['TEST'] } }))
      .body;
    const changed = await call(stack.apiUrl, 'PUT', `${CONFIGS}/${created.id}`, { key, body: { eventTypes: ['PAYMENT_CAPTURED'] } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id: created.id, url: 'http://127.0.0.1:9/a', description: 'first', eventTypes: ['PAYMENT_CAPTURED'] });
    expect(changed.body.secret).toBeUndefined();
    const moved = await call(stack.apiUrl, 'PUT', `${CONFIGS}/${created.id}`, {
      key,
      body: { url: 'http://127.0.0.1:10/b', description: null, eventTypes: [] },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ url: 'http://127.0.0.1:10/b', description: null, eventTypes: [] });
    expect(await storedSecret(created.id)).toBe(created.secret);
  });

  it('removes a destination: gone from reads and writes afterwards', async () => {
    const { key } = await createMerchantWithKey(stack.db);
    const created = (await call(stack.apiUrl, 'POST', CONFIGS, { key, body: { url: 'http://127.0.0.1:9/a' } })).body;
    const removed = await call(stack.apiUrl, 'DELETE', `${CONFIGS}/${created.id}`, { key });
    expect(removed.status).toBe(204);
    expectErrorShape(await call(stack.apiUrl, 'GET', `${CONFIGS}/${created.id}`, { key }), 404);
    expectErrorShape(await call(stack.apiUrl, 'DELETE', `${CONFIGS}/${created.id}`, { key }), 404);
    expectErrorShape(await call(stack.apiUrl, 'POST', `${CONFIGS}/${created.id}/test`, { key }), 404);
    expect((await call(stack.apiUrl, 'GET', CONFIGS, { key })).body).toEqual([]);
    expect((await stack.db.webhookConfig.findUniqueOrThrow({ where: { id: created.id } })).deletedAt).toBeInstanceOf(Date);
  });

  it('scopes destinations to the key mode: a test key does not see live destinations', async () => {
    const { key, merchant } = await createMerchantWithKey(stack.db);
    const test = generateApiKey('test');
    await stack.db.apiKey.create({ data: { merchantId: merchant.id, name: 't', mode: 'test', prefix: test.prefix, keyHash: test.hash, scopes: ['webhooks'] } });
    const live = (await call(stack.apiUrl, 'POST', CONFIGS, { key, body: { url: 'http://127.0.0.1:9/live' } })).body;
    const testConfig = await call(stack.apiUrl, 'POST', CONFIGS, { key: test.key, body: { url: 'http://127.0.0.1:9/test' } });
    expect(testConfig.body.mode).toBe('test');
    expect((await call(stack.apiUrl, 'GET', CONFIGS, { key: test.key })).body.map((c: any) => c.id)).toEqual([testConfig.body.id]);
    expectErrorShape(await call(stack.apiUrl, 'GET', `${CONFIGS}/${live.id}`, { key: test.key }), 404);
  });
});

describe('bad input writes nothing', () => {
  it('rejects unknown event types with 400 naming eventTypes', async () => {
    const { key, merchant } = await createMerchantWithKey(stack.db);
    const before = await countWritten(merchant.id);
    const res = await call(stack.apiUrl, 'POST', CONFIGS, { key, body: { url: 'http://127.0.0.1:9/a', eventTypes: ['PAYMENT_CAPTURED', 'PAYMENT_EXPLODED'] } });
    const message = expectErrorShape(res, 400);
    expect(message).toMatch(/^eventTypes: /);
    expect(message).toContain('PAYMENT_EXPLODED');
    expect(await countWritten(merchant.id)).toEqual(before);
    expectErrorShape(await call(stack.apiUrl, 'POST', CONFIGS, { key, body: { url: 'http://127.0.0.1:9/a', eventTypes: 'TEST' } }), 400);
  });

  it('rejects a missing url, unknown fields and an empty update', async () => {
    const { key, merchant } = await createMerchantWithKey(stack.db);
    expect(expectErrorShape(await call(stack.apiUrl, 'POST', CONFIGS, { key, body: { description: 'x' } }), 400)).toMatch(/^url: /);
    expect(expectErrorShape(await call(stack.apiUrl, 'POST', CONFIGS, { key, body: { url: 'http://127.0.0.1:9/a', secret: 'mine' } }), 400)).toContain(
      'secret',
    );
    expect(expectErrorShape(await call(stack.apiUrl, 'POST', CONFIGS, { key, body: { url: 'not a url' } }), 400)).toBe('url: must be an absolute URL');
    expect(expectErrorShape(await call(stack.apiUrl, 'POST', CONFIGS, { key, body: { url: 'ftp://127.0.0.1/a' } }), 400)).toMatch(/^url: /);
    expect(expectErrorShape(await call(stack.apiUrl, 'POST', CONFIGS, { key, body: { url: 'http://user:pw@127.0.0.1/a' } }), 400)).toBe(
      'url: must not carry credentials',
    );
    const created = (await call(stack.apiUrl, 'POST', CONFIGS, { key, body: { url: 'http://127.0.0.1:9/a' } })).body;
    const before = await countWritten(merchant.id);
    expectErrorShape(await call(stack.apiUrl, 'PUT', `${CONFIGS}/${created.id}`, { key, body: {} }), 400);
    expectErrorShape(await call(stack.apiUrl, 'PUT', `${CONFIGS}/${created.id}`, { key, body: { eventTypes: ['NOPE'] } }), 400);
    expect(await countWritten(merchant.id)).toEqual(before);
    expect((await stack.db.webhookConfig.findUniqueOrThrow({ where: { id: created.id } })).updatedAt.toISOString()).toBe(created.updatedAt);
  });

  it('answers without a key 401 and pages the history within the paging rules', async () => {
    expectErrorShape(await call(stack.apiUrl, 'GET', CONFIGS), 401);
    const { key } = await createMerchantWithKey(stack.db);
    const created = (await call(stack.apiUrl, 'POST', CONFIGS, { key, body: { url: 'http://127.0.0.1:9/a' } })).body;
    expect(expectErrorShape(await call(stack.apiUrl, 'GET', `${CONFIGS}/${created.id}/events?size=101`, { key }), 400)).toMatch(/^size: /);
    const empty = await call(stack.apiUrl, 'GET', `${CONFIGS}/${created.id}/events`, { key });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ content: [], totalElements: 0, totalPages: 0, page: 0, size: 20 });
  });
});

describe("another business's destination or event", () => {
  it('is 404 on every endpoint and stays unchanged', async () => {
    const owner = await createMerchantWithKey(stack.db);
    const other = await createMerchantWithKey(stack.db);
    const created = (await call(stack.apiUrl, 'POST', CONFIGS, { key: owner.key, body: { url: 'http://127.0.0.1:9/a' } })).body;
    const sent = await call(stack.apiUrl, 'POST', `${CONFIGS}/${created.id}/test`, { key: owner.key });
    expect(sent.status).toBe(202);
    const eventId = sent.body.eventId as string;
    const before = await countWritten(other.merchant.id);

    const id = created.id as string;
    for (const [method, path, body] of [
      ['GET', `${CONFIGS}/${id}`, undefined],
      ['PUT', `${CONFIGS}/${id}`, { description: 'mine now' }],
      ['DELETE', `${CONFIGS}/${id}`, undefined],
      ['POST', `${CONFIGS}/${id}/regenerate-key`, undefined],
      ['POST', `${CONFIGS}/${id}/test`, undefined],
      ['GET', `${CONFIGS}/${id}/events`, undefined],
      ['GET', `/api/webhooks/events/${eventId}/attempts`, undefined],
      ['POST', `/api/webhooks/events/${eventId}/redeliver`, undefined],
      ['GET', `${CONFIGS}/no-such-config`, undefined],
      ['GET', '/api/webhooks/events/evt_unknown/attempts', undefined],
    ] as const) {
      expectErrorShape(await call(stack.apiUrl, method, path, { key: other.key, body }), 404);
    }
    expect((await call(stack.apiUrl, 'GET', CONFIGS, { key: other.key })).body).toEqual([]);
    const after = await stack.db.webhookConfig.findUniqueOrThrow({ where: { id } });
    expect(after).toMatchObject({ description: null, deletedAt: null });
    expect(await storedSecret(id)).toBe(created.secret);
    expect(await countWritten(other.merchant.id)).toEqual(before);

    // Redelivering one's own event to another business's destination is 404 as well.
    const foreign = (await call(stack.apiUrl, 'POST', CONFIGS, { key: other.key, body: { url: 'http://127.0.0.1:9/b' } })).body;
    expectErrorShape(await call(stack.apiUrl, 'POST', `/api/webhooks/events/${eventId}/redeliver`, { key: owner.key, body: { configId: foreign.id } }), 404);
  });
});

describe('URL rules without WEBHOOK_ALLOW_INSECURE', () => {
  const refused: [string, RegExp][] = [
    ['http://example.com/hooks', /^url: must be an https:\/\/ URL$/],
    ['https://127.0.0.1/hooks', /loopback address \(127\.0\.0\.1\)/],
    ['https://127.9.9.9:8443/hooks', /loopback/],
    ['https://0x7f000001/hooks', /loopback address \(127\.0\.0\.1\)/],
    ['https://[::1]/hooks', /loopback/],
    ['https://10.0.0.1/hooks', /private address \(10\.0\.0\.1\)/],
    ['https://172.16.5.4/hooks', /private address/],
    ['https://192.168.1.1/hooks', /private address/],
    ['https://100.64.0.1/hooks', /carrier-grade NAT/],
    ['https://[fd00::1]/hooks', /unique-local/],
    ['https://[::ffff:10.0.0.1]/hooks', /private address/],
    ['https://169.254.169.254/latest', /link-local/],
    ['https://[fe80::1]/hooks', /link-local/],
    ['https://0.0.0.0/hooks', /unspecified/],
    ['https://localhost/hooks', /^url: host localhost resolves to a loopback address/],
  ];

  it.each(refused)('refuses %s with 400 and writes nothing', async (url, reason) => {
    const { key, merchant } = await createMerchantWithKey(secure.db);
    const res = await call(secure.apiUrl, 'POST', CONFIGS, { key, body: { url } });
    expect(expectErrorShape(res, 400)).toMatch(reason);
    expect(await secure.db.webhookConfig.count({ where: { merchantId: merchant.id } })).toBe(0);
  });

  it('accepts a public https address, and refuses an update to a private one', async () => {
    const { key } = await createMerchantWithKey(secure.db);
    // Configured only: no event is raised for this business, so nothing is ever sent there.
    const created = await call(secure.apiUrl, 'POST', CONFIGS, { key, body: { url: 'https://8.8.8.8/hooks' } });
    expect(created.status).toBe(201);
    expectErrorShape(await call(secure.apiUrl, 'PUT', `${CONFIGS}/${created.body.id}`, { key, body: { url: 'https://192.168.0.10/hooks' } }), 400);
    expect((await secure.db.webhookConfig.findUniqueOrThrow({ where: { id: created.body.id } })).url).toBe('https://8.8.8.8/hooks');
    expect((await call(secure.apiUrl, 'DELETE', `${CONFIGS}/${created.body.id}`, { key })).status).toBe(204);
  });

  it('stores the URL as parsed (issue 22): what the rules checked is what is stored, shown and delivered to', async () => {
    const { key } = await createMerchantWithKey(secure.db);
    const created = await call(secure.apiUrl, 'POST', CONFIGS, { key, body: { url: '  HTTPS://8.8.8.8:443/Hooks/../in?a=b c#frag\t' } });
    expect(created.status).toBe(201);
    const normalised = 'https://8.8.8.8/in?a=b%20c#frag';
    expect(created.body.url).toBe(normalised);
    expect((await secure.db.webhookConfig.findUniqueOrThrow({ where: { id: created.body.id } })).url).toBe(normalised);
    const moved = await call(secure.apiUrl, 'PUT', `${CONFIGS}/${created.body.id}`, { key, body: { url: 'hTTps://[2001:4860:4860:0:0:0:0:8888]:443/x' } });
    expect(moved.body.url).toBe('https://[2001:4860:4860::8888]/x');
    expect((await secure.db.webhookConfig.findUniqueOrThrow({ where: { id: created.body.id } })).url).toBe('https://[2001:4860:4860::8888]/x');
    expect((await call(secure.apiUrl, 'DELETE', `${CONFIGS}/${created.body.id}`, { key })).status).toBe(204);
  });

  it('checks again at delivery after name resolution: a name resolving to loopback is refused and nothing is sent', async () => {
    const receiver = await new TestReceiver().start();
    try {
      const { key } = await createMerchantWithKey(secure.db);
      // Stored while the rules were lifted (the insecure stack), delivered by the stack that enforces them.
      const viaName = (await call(stack.apiUrl, 'POST', CONFIGS, { key, body: { url: `https://localhost:${receiver.port}/hooks` } })).body;
      const plainHttp = (await call(stack.apiUrl, 'POST', CONFIGS, { key, body: { url: receiver.url } })).body;

      const named = await call(secure.apiUrl, 'POST', `${CONFIGS}/${viaName.id}/test`, { key });
      expect(named.status).toBe(202);
      const insecure = await call(secure.apiUrl, 'POST', `${CONFIGS}/${plainHttp.id}/test`, { key });
      expect(insecure.status).toBe(202);

      const history = async (configId: string) => (await call(secure.apiUrl, 'GET', `${CONFIGS}/${configId}/events`, { key })).body.content[0];
      // Name resolution may change, so the refusal is retried until the maximum age, then FAILED.
      await eventually(async () => (await history(viaName.id)).status === 'FAILED', 'the delivery to a name resolving to loopback to fail');
      // A URL that is not https:// can never be sent: FAILED after its one refused attempt.
      await eventually(async () => (await history(plainHttp.id)).status === 'FAILED', 'the delivery to an http:// URL to fail');

      const namedAttempts = (await call(secure.apiUrl, 'GET', `/api/webhooks/events/${named.body.eventId}/attempts`, { key })).body;
      expect(namedAttempts.length).toBeGreaterThanOrEqual(1);
      for (const a of namedAttempts) {
        expect(a).toMatchObject({ configId: viaName.id, responseStatus: null, responseBody: null });
        expect(a.error).toMatch(/^refused, not sent: url host localhost resolves to a loopback address/);
      }
      const httpAttempts = (await call(secure.apiUrl, 'GET', `/api/webhooks/events/${insecure.body.eventId}/attempts`, { key })).body;
      expect(httpAttempts).toEqual([
        expect.objectContaining({ attemptNumber: 1, responseStatus: null, error: 'refused, not sent: url must be an https:// URL' }),
      ]);
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.stop();
    }
  });
});

describe('OpenAPI', () => {
  it('documents every webhook endpoint', async () => {
    const doc = (await call(stack.apiUrl, 'GET', '/openapi.json')).body;
    for (const path of [
      CONFIGS,
      `${CONFIGS}/{id}`,
      `${CONFIGS}/{id}/regenerate-key`,
      `${CONFIGS}/{id}/test`,
      `${CONFIGS}/{id}/events`,
      '/api/webhooks/events/{eventId}/attempts',
      '/api/webhooks/events/{eventId}/redeliver',
    ]) {
      expect(doc.paths[path]).toBeDefined();
    }
  });
});
