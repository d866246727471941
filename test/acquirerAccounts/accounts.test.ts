import { createMerchantWithKey } from '../support/fixtures';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { createMerchant, signedInUser } from '../users/helpers';
import type { Merchant } from '../../src/generated/prisma/client';
import { createAccount } from '../../src/acquirerAccounts/accounts';
import { adminOf, type Admin, sandboxAccount, STRIPE_LIVE, STRIPE_TEST } from './helpers';

/**
 * Acquirer accounts (docs/acquirers.md, "Accounts"): ADMIN creates, reads, changes and removes its business's
 * accounts; credentials are write-only (masked in every answer, sealed at rest, absent from the
 * audit log); a credential of the wrong mode is refused; other roles 403, API keys 401, another
 * business's account 404.
 */
let stack: TestStack;
let merchant: Merchant;
let admin: Admin;

beforeAll(async () => {
  stack = await startTestStack();
  merchant = await createMerchant(stack.db, 'Accounts Test Merchant');
  admin = await adminOf(stack, merchant);
});
afterAll(async () => {
  await stack?.stop();
});

describe('creating an account', () => {
  it('answers 201 with the account, its notification path, and the credentials masked', async () => {
    const res = await admin.createAccount({ name: 'Stripe DE', acquirer: 'stripe', mode: 'test', merchantAccountId: 'MID-DE-1', credentials: STRIPE_TEST });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^acct_[A-Za-z0-9]{20}$/),
      name: 'Stripe DE',
      acquirer: 'stripe',
      mode: 'test',
      merchantAccountId: 'MID-DE-1',
      status: 'ACTIVE',
      credentials: { apiKey: `••••${STRIPE_TEST.apiKey.slice(-4)}`, webhookSecret: `••••${STRIPE_TEST.webhookSecret.slice(-4)}` },
      notificationPath: `/internal/acquirer/${res.body.id}/notifications`,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    // Sealed at rest: the row holds neither value in clear.
    const row = await stack.db.acquirerAccount.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.credentials).toMatch(/^enc:v1:/);
    expect(row.credentials).not.toContain(STRIPE_TEST.apiKey);
    // Never in a read either, nor in the audit log.
    expect(JSON.stringify((await admin.getAccount(res.body.id)).body)).not.toContain(STRIPE_TEST.apiKey);
    expect(JSON.stringify((await admin.listAccounts()).body)).not.toContain(STRIPE_TEST.webhookSecret);
    const audit = await stack.db.auditLog.findMany({ where: { merchantId: merchant.id, targetId: res.body.id } });
    expect(audit.map((a) => a.action)).toEqual(['ACQUIRER_ACCOUNT_CREATED']);
    expect(JSON.stringify(audit.map((a) => a.details))).not.toContain(STRIPE_TEST.apiKey.slice(8));
  });

  it.each([
    [
      'a live Stripe key for a test account',
      { acquirer: 'stripe', mode: 'test', credentials: STRIPE_LIVE },
      /credentials: live-mode credentials cannot serve a test account/,
    ],
    [
      'a test Stripe key for a live account',
      { acquirer: 'stripe', mode: 'live', credentials: STRIPE_TEST },
      /credentials: test-mode credentials cannot serve a live account/,
    ],
    [
      'an Adyen LIVE environment for a test account',
      { acquirer: 'adyen', mode: 'test', credentials: { apiKey: 'AQEyhmfxK4', hmacKey: '44782DEF547AAA06C910C43932B1EB0C', environment: 'LIVE' } },
      /credentials: live-mode/,
    ],
    [
      'an Adyen live URL prefix for a TEST account',
      {
        acquirer: 'adyen',
        mode: 'test',
        credentials: { apiKey: 'AQEyhmfxK4', hmacKey: '44782DEF547AAA06C910C43932B1EB0C', environment: 'TEST', liveEndpointUrlPrefix: 'abc-Demo' },
      },
      /credentials\.liveEndpointUrlPrefix: only a LIVE account/,
    ],
    [
      'an Adyen live URL prefix that is not one',
      {
        acquirer: 'adyen',
        mode: 'live',
        credentials: { apiKey: 'AQEyhmfxK4', hmacKey: '44782DEF547AAA06C910C43932B1EB0C', environment: 'LIVE', liveEndpointUrlPrefix: 'https://x' },
      },
      /credentials\.liveEndpointUrlPrefix: must be the account's live endpoint URL prefix/,
    ],
    ['a missing field', { acquirer: 'stripe', mode: 'test', credentials: { apiKey: STRIPE_TEST.apiKey } }, /credentials\.webhookSecret: is required/],
    ['an unknown field', { acquirer: 'sandbox', mode: 'test', credentials: { token: 'x' } }, /credentials\.token: unknown field/],
    ['no credentials object', { acquirer: 'sandbox', mode: 'test', credentials: 'x' }, /credentials: must be an object/],
    ['an unknown acquirer', { acquirer: 'paypal', mode: 'test', credentials: {} }, /acquirer: must be sandbox, stripe or adyen/],
    ['an unknown mode', { acquirer: 'sandbox', mode: 'prod', credentials: {} }, /mode: must be live or test/],
    ['an empty MID', { acquirer: 'sandbox', mode: 'test', credentials: {}, merchantAccountId: '' }, /merchantAccountId: must not be empty/],
  ])('refuses %s with 400 naming the field, and writes nothing', async (_what, over, message) => {
    const before = await stack.db.acquirerAccount.count({ where: { merchantId: merchant.id } });
    const res = await admin.createAccount({ name: 'Refused', merchantAccountId: 'MID-X', ...over });
    expect(expectErrorShape(res, 400)).toMatch(message);
    expect(JSON.stringify(res.body)).not.toContain('sk_live_51Zy');
    expect(await stack.db.acquirerAccount.count({ where: { merchantId: merchant.id } })).toBe(before);
  });

  it('accepts Adyen credentials of the right environment', async () => {
    const res = await admin.createAccount({
      name: 'Adyen NL',
      acquirer: 'adyen',
      mode: 'live',
      merchantAccountId: 'ShopNL_POS',
      credentials: { apiKey: 'AQEyhmfxK4PdvW0acomD', hmacKey: '44782DEF547AAA06C910C43932B1EB0C', environment: 'LIVE' },
    });
    expect(res.status).toBe(201);
    expect(res.body.credentials).toEqual({ apiKey: '••••comD', hmacKey: '••••EB0C', environment: '••••LIVE' });
    // With the live Checkout prefix two-step terminals need (docs/acquirers.md).
    const withPrefix = await admin.createAccount({
      name: 'Adyen NL two-step',
      acquirer: 'adyen',
      mode: 'live',
      merchantAccountId: 'ShopNL_POS2',
      credentials: {
        apiKey: 'AQEyhmfxK4PdvW0acomD',
        hmacKey: '44782DEF547AAA06C910C43932B1EB0C',
        environment: 'LIVE',
        liveEndpointUrlPrefix: '1797a841fbb37ca7-AdyenDemo',
      },
    });
    expect(withPrefix.status).toBe(201);
    expect(withPrefix.body.credentials.liveEndpointUrlPrefix).toBe('••••Demo');
  });
});

describe('changing an account', () => {
  it('renames, rotates credentials (masked, audited without values) and deactivates', async () => {
    const id = (await admin.createAccount({ name: 'Old name', acquirer: 'stripe', mode: 'test', merchantAccountId: 'MID-R', credentials: STRIPE_TEST })).body
      .id as string;
    const rotated = { apiKey: 'rk_test_51NewRestrictedKeyQq9z', webhookSecret: 'whsec_rotatedSecretZz81' };
    const res = await admin.updateAccount(id, { name: 'New name', credentials: rotated });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'New name', credentials: { apiKey: '••••Qq9z', webhookSecret: '••••Zz81' } });
    const row = await stack.db.acquirerAccount.findUniqueOrThrow({ where: { id } });
    expect(row.revision).toBe(2);
    const off = await admin.updateAccount(id, { status: 'INACTIVE' });
    expect(off.body.status).toBe('INACTIVE');
    const entries = await stack.db.auditLog.findMany({ where: { targetId: id }, orderBy: { id: 'asc' } });
    expect(entries.map((e) => e.action)).toEqual(['ACQUIRER_ACCOUNT_CREATED', 'ACQUIRER_ACCOUNT_UPDATED', 'ACQUIRER_ACCOUNT_UPDATED']);
    expect(entries[1]!.details).toEqual({ name: { from: 'Old name', to: 'New name' }, credentialsRotated: ['apiKey', 'webhookSecret'] });
    expect(entries[2]!.details).toEqual({ status: { from: 'ACTIVE', to: 'INACTIVE' } });
    expect(JSON.stringify(entries.map((e) => e.details))).not.toContain('NewRestrictedKey');
    // A rotation to the other mode's key is refused, and the account keeps its credentials.
    expect(expectErrorShape(await admin.updateAccount(id, { credentials: STRIPE_LIVE }), 400)).toMatch(/^credentials: live-mode/);
    expect((await admin.getAccount(id)).body.credentials.apiKey).toBe('••••Qq9z');
  });

  it('refuses unknown fields and bad values with 400', async () => {
    const id = await sandboxAccount(admin, 'test', 'MID-F');
    expect(expectErrorShape(await admin.updateAccount(id, { merchantAccountId: 'other' }), 400)).toMatch(/merchantAccountId: unknown field/);
    expect(expectErrorShape(await admin.updateAccount(id, { status: 'PAUSED' }), 400)).toMatch(/status: must be ACTIVE or INACTIVE/);
    expect(expectErrorShape(await admin.updateAccount(id, { name: '' }), 400)).toMatch(/name: must not be empty/);
  });
});

describe('account names (issue 37): the username rule, unique within the business', () => {
  it.each([
    ['a right-to-left override', 'Stripe \u202eED', /^name: must not contain control, invisible or direction-changing characters \(U\+202E\)$/],
    ['a zero-width space', 'Str\u200bipe DE', /^name: must not contain control, invisible or direction-changing characters \(U\+200B\)$/],
    ['a zero-width joiner', 'Stripe\u200dDE', /\(U\+200D\)$/],
    ['a look-alike letter of another script', 'Str\u0456pe DE', /^name: must not mix scripts \(Latin with Cyrillic\)/],
    ['a control character', 'Stripe\tDE', /^name: must not contain control/],
    ['two spaces in a row', 'Stripe  DE', /^name: must not contain white space other than single spaces between words$/],
  ])('refuses %s with 400 naming the field, and writes nothing', async (_what, name, message) => {
    const before = await stack.db.acquirerAccount.count({ where: { merchantId: merchant.id } });
    expect(
      expectErrorShape(await admin.createAccount({ name, acquirer: 'sandbox', mode: 'test', merchantAccountId: 'MID-NAME', credentials: {} }), 400),
    ).toMatch(message);
    expect(await stack.db.acquirerAccount.count({ where: { merchantId: merchant.id } })).toBe(before);
    // A rename is held to the same rule.
    const id = await sandboxAccount(admin, 'test', `MID-NAME-${Math.random().toString(36).slice(2, 8)}`);
    expect(expectErrorShape(await admin.updateAccount(id, { name }), 400)).toMatch(message);
  });

  it('stores the NFKC form; a name taken in the business, whatever the case or width, is 409; a removed account frees its name', async () => {
    const first = await admin.createAccount({
      name: 'Ｈａｒｂｏｕｒ\u00a0Pay',
      acquirer: 'sandbox',
      mode: 'test',
      merchantAccountId: 'MID-H1',
      credentials: {},
    });
    expect(first.status).toBe(201);
    expect(first.body.name).toBe('Harbour Pay');
    for (const name of ['Harbour Pay', 'HARBOUR PAY', ' harbour pay ', 'Ｈａｒｂｏｕｒ Pay']) {
      const res = await admin.createAccount({ name, acquirer: 'sandbox', mode: 'live', merchantAccountId: 'MID-H2', credentials: {} });
      expect(expectErrorShape(res, 409)).toBe(
        `name: acquirer account ${first.body.id} of this business is already called 'Harbour Pay' (names are unique whatever the case)`,
      );
    }
    // A rename to a taken name too; renaming an account to its own name in another case is no clash.
    const second = await sandboxAccount(admin, 'test', 'MID-H3', 'Quay Pay');
    expect(expectErrorShape(await admin.updateAccount(second, { name: 'harbour pay' }), 409)).toMatch(/^name: /);
    expect((await admin.getAccount(second)).body.name).toBe('Quay Pay');
    expect((await admin.updateAccount(first.body.id, { name: 'HARBOUR PAY' })).status).toBe(200);
    // Removed, its name is free again.
    expect((await admin.deleteAccount(first.body.id)).status).toBe(204);
    expect((await admin.updateAccount(second, { name: 'Harbour Pay' })).status).toBe(200);
  });

  it('two names created at once: one is taken, the other 409', async () => {
    const results = await Promise.all(
      [1, 2, 3].map((i) => admin.createAccount({ name: 'Race Pay', acquirer: 'sandbox', mode: 'test', merchantAccountId: `MID-RACE-${i}`, credentials: {} })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });
});

describe('removing an account', () => {
  it('removes an unused account: 204, gone from reads, audited', async () => {
    const id = await sandboxAccount(admin, 'test', 'MID-DEL');
    expect((await admin.deleteAccount(id)).status).toBe(204);
    expectErrorShape(await admin.getAccount(id), 404);
    expect(((await admin.listAccounts()).body as { id: string }[]).map((a) => a.id)).not.toContain(id);
    expect((await stack.db.auditLog.findFirst({ where: { targetId: id, action: 'ACQUIRER_ACCOUNT_DELETED' } }))?.details).toMatchObject({
      merchantAccountId: 'MID-DEL',
    });
    expectErrorShape(await admin.deleteAccount(id), 404);
  });

  it('refuses (409) to remove or deactivate an account a route names', async () => {
    const id = await sandboxAccount(admin, 'test', 'MID-ROUTED');
    expect((await admin.saveRoutes({ mode: 'test', rules: [], defaultAccountId: id })).status).toBe(200);
    expect(expectErrorShape(await admin.deleteAccount(id), 409)).toMatch(/named by the test routes/);
    expect(expectErrorShape(await admin.updateAccount(id, { status: 'INACTIVE' }), 409)).toMatch(/named by the test routes/);
    expect((await admin.getAccount(id)).body.status).toBe('ACTIVE');
    await admin.saveRoutes({ mode: 'test', rules: [], defaultAccountId: null });
    expect((await admin.deleteAccount(id)).status).toBe(204);
  });
});

describe('who may', () => {
  it('two businesses may name accounts alike; each sees only its own, the other is 404', async () => {
    const other = await createMerchant(stack.db, 'Other Business');
    const otherAdmin = await adminOf(stack, other);
    const mine = await sandboxAccount(admin, 'test', 'MID-SAME', 'Same name');
    const theirs = await sandboxAccount(otherAdmin, 'test', 'MID-SAME', 'Same name');
    expect(mine).not.toBe(theirs);
    expectErrorShape(await admin.getAccount(theirs), 404);
    expectErrorShape(await admin.updateAccount(theirs, { name: 'taken' }), 404);
    expectErrorShape(await admin.deleteAccount(theirs), 404);
    expect(((await otherAdmin.listAccounts()).body as { id: string }[]).map((a) => a.id)).toEqual([theirs]);
    // Nor can a route of one business name the other's account.
    expect(
      expectErrorShape(await admin.saveRoutes({ mode: 'test', rules: [{ name: 'r', accountId: theirs, match: {} }], defaultAccountId: null }), 400),
    ).toMatch(/^rules\[0\]\.accountId: no acquirer account/);
  });

  it.each(['FINANCE', 'OPERATIONS', 'COMPLIANCE', 'USER'] as const)('%s is refused (403) on every endpoint', async (role) => {
    const { token } = await signedInUser(stack.db, stack.apiUrl, merchant, [role]);
    for (const [method, path] of [
      ['GET', '/api/dashboard/acquirer-accounts'],
      ['POST', '/api/dashboard/acquirer-accounts'],
      ['GET', '/api/dashboard/acquirer-accounts/acct_x'],
      ['PUT', '/api/dashboard/acquirer-accounts/acct_x'],
      ['DELETE', '/api/dashboard/acquirer-accounts/acct_x'],
      ['GET', '/api/dashboard/acquirer-routes?mode=live'],
      ['PUT', '/api/dashboard/acquirer-routes'],
    ]) {
      expectErrorShape(await call(stack.apiUrl, method!, path!, { token, body: method === 'GET' || method === 'DELETE' ? undefined : {} }), 403);
    }
  });

  it('an API key is refused with 401', async () => {
    const { key } = await createMerchantWithKey(stack.db);
    expectErrorShape(await call(stack.apiUrl, 'GET', '/api/dashboard/acquirer-accounts', { key }), 401);
  });
});

describe('routes naming an empty account id (found by the fuzz run: a 500 from the foreign key)', () => {
  it.each([
    ['defaultAccountId', { mode: 'live', rules: [], defaultAccountId: '' }, /defaultAccountId: must be an account id or null/],
    ['a rule', { mode: 'live', rules: [{ name: 'r', accountId: '', match: {} }], defaultAccountId: null }, /rules\[0\]\.accountId: must be an account id/],
  ])('%s "" -> 400 naming it, nothing saved', async (_what, body, message) => {
    const before = (await admin.routes('live')).body.version;
    expect(expectErrorShape(await admin.saveRoutes(body), 400)).toMatch(message);
    expect((await admin.routes('live')).body.version).toBe(before);
  });
});

describe('a live sandbox account', () => {
  it('is refused (400 naming mode) when the service runs in production, and allowed otherwise', async () => {
    const body = { name: 'Play money', acquirer: 'sandbox' as const, mode: 'live' as const, merchantAccountId: 'MID-PLAY', credentials: {} };
    const by = { merchantId: merchant.id, actor: { type: 'USER' as const, id: 1 } };
    await expect(createAccount({ db: stack.db, production: true }, by, body)).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(/^mode: a live sandbox account/),
    });
    expect(await stack.db.acquirerAccount.count({ where: { merchantId: merchant.id, merchantAccountId: 'MID-PLAY' } })).toBe(0);
    // Outside production (this test stack) the API accepts it: a live trial against the sandbox.
    expect((await admin.createAccount(body)).status).toBe(201);
  });
});
