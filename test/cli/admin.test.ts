import { hashApiKey } from '../../src/auth/apiKeys';
import { verifyPassword } from '../../src/auth/passwords';
import { API_KEY_SCOPES } from '../../src/auth/roles';
import { createMerchant } from '../../src/operator/merchants';
import { call } from '../support/http';
import { createMerchantWithKey, uniqueId } from '../support/fixtures';
import { startTestStack, type TestStack } from '../support/stack';
import { expectRefused, runAdmin } from './runAdmin';

/**
 * The operator command line (docs/operator-cli.md), run as a child process against the run's database,
 * with the service up beside it (the CLI works while the service runs).
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.stop();
});

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const UUID = expect.stringMatching(/^[0-9a-f-]{36}$/);

describe('merchant:create', () => {
  it('prints the merchant as one JSON object, and refuses a second business with the same external id', async () => {
    const externalId = uniqueId('acme');
    const created = await runAdmin(['merchant:create', '--external-id', externalId, '--name', 'ACME Retail', '--json']);
    expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: '' });
    expect(created.json).toEqual({ id: UUID, externalId, name: 'ACME Retail', createdAt: ISO });
    expect(await stack.db.merchant.findUnique({ where: { externalId } })).toMatchObject({ id: created.json.id, name: 'ACME Retail' });

    const [duplicate, badId] = await Promise.all([
      runAdmin(['merchant:create', '--external-id', externalId, '--name', 'Someone Else', '--json']),
      runAdmin(['merchant:create', '--external-id', 'has space', '--name', 'X', '--json']),
    ]);
    expect(expectRefused(duplicate, 1)).toBe(`merchant '${externalId}' already exists`);
    expect(expectRefused(badId, 2)).toMatch(/^external-id: /);
    expect(await stack.db.merchant.count({ where: { externalId } })).toBe(1);
  });
});

describe('user:create', () => {
  it('creates a user with hashed password and prefixed roles, and refuses bad input with nothing written', async () => {
    const merchant = await createMerchant(stack.db, { externalId: uniqueId('m'), name: 'Users Inc' });
    const username = uniqueId('Admin');
    const password = 'first-admin-2026';
    const run = await runAdmin([
      'user:create',
      '--merchant',
      merchant.externalId,
      '--username',
      username,
      '--password',
      password,
      '--roles',
      'admin,ROLE_FINANCE',
      '--json',
    ]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expect(run.json).toMatchObject({
      id: expect.any(Number),
      username,
      displayName: null,
      email: null,
      enabled: true,
      locked: false,
      roles: ['ROLE_ADMIN', 'ROLE_FINANCE'],
      merchantExternalId: merchant.externalId,
      merchantName: 'Users Inc',
      createdAt: ISO,
      updatedAt: ISO,
    });
    expect(run.stdout).not.toContain(password);
    const row = await stack.db.user.findUniqueOrThrow({ where: { id: run.json.id } });
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(row.passwordHash, password)).toBe(true);
    expect(await stack.db.auditLog.findFirst({ where: { merchantId: merchant.id, action: 'USER_CREATED', targetId: String(row.id) } })).toMatchObject({
      actorType: 'OPERATOR',
    });

    const other = uniqueId('clerk');
    const [fromStdin, sameNameOtherCase, weak, unknownRole, noMerchant, tooShort, spaced, mixedScripts] = await Promise.all([
      runAdmin(['user:create', '--merchant', merchant.externalId, '--username', other, '--password', '-', '--json'], { stdin: 'clerk-password-42\n' }),
      runAdmin(['user:create', '--merchant', merchant.externalId, '--username', username.toUpperCase(), '--password', password, '--json']),
      runAdmin(['user:create', '--merchant', merchant.externalId, '--username', uniqueId('weak'), '--password', 'onlyletters-here', '--json']),
      runAdmin(['user:create', '--merchant', merchant.externalId, '--username', uniqueId('boss'), '--password', password, '--roles', 'ADMIN,OWNER', '--json']),
      runAdmin(['user:create', '--merchant', 'no-such-merchant', '--username', uniqueId('x'), '--password', password, '--json']),
      // The API's username rule, word for word.
      runAdmin(['user:create', '--merchant', merchant.externalId, '--username', 'ab', '--password', password, '--json']),
      runAdmin(['user:create', '--merchant', merchant.externalId, '--username', 'maria finance', '--password', password, '--json']),
      // "аdmin" with a Cyrillic а
      runAdmin(['user:create', '--merchant', merchant.externalId, '--username', '\u0430dmin', '--password', password, '--json']),
    ]);
    // Roles omitted: USER; the password came from standard input.
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.json).toMatchObject({ username: other, roles: ['ROLE_USER'] });
    const otherRow = await stack.db.user.findUniqueOrThrow({ where: { id: fromStdin.json.id } });
    expect(await verifyPassword(otherRow.passwordHash, 'clerk-password-42')).toBe(true);

    expect(expectRefused(sameNameOtherCase, 1)).toBe(`username '${username.toUpperCase()}' is already taken`);
    expect(expectRefused(weak, 2)).toBe('password: must contain both letters and digits');
    expect(expectRefused(unknownRole, 2)).toMatch(/^roles: unknown role 'OWNER'/);
    expect(expectRefused(noMerchant, 1)).toBe("merchant 'no-such-merchant' not found");
    expect(expectRefused(tooShort, 2)).toBe('username: must be at least 3 characters');
    expect(expectRefused(spaced, 2)).toBe('username: must not contain spaces or control characters');
    expect(expectRefused(mixedScripts, 2)).toBe("username: must not mix scripts (Cyrillic with Latin): letters of one script can pass for another's");
    expect(await stack.db.user.count({ where: { merchantId: merchant.id } })).toBe(2);
  });
});

describe('apikey:create', () => {
  it('issues a key shown once that the API accepts, stores only its hash and audits it', async () => {
    const merchant = await createMerchant(stack.db, { externalId: uniqueId('m'), name: 'Keys Ltd' });
    const [live, test, noMerchant, badMode] = await Promise.all([
      runAdmin(['apikey:create', '--merchant', merchant.externalId, '--name', 'pos-server', '--json']),
      runAdmin(['apikey:create', '--merchant', merchant.externalId, '--name', 'staging', '--mode', 'test', '--json']),
      runAdmin(['apikey:create', '--merchant', 'no-such-merchant', '--name', 'x', '--json']),
      runAdmin(['apikey:create', '--merchant', merchant.externalId, '--name', 'x', '--mode', 'prod', '--json']),
    ]);
    expect({ code: live.code, stderr: live.stderr }).toEqual({ code: 0, stderr: '' });
    expect(Object.keys(live.json).sort()).toEqual(['id', 'key', 'mode', 'prefix']);
    expect(live.json).toEqual({ id: UUID, key: expect.stringMatching(/^isp_live_[0-9A-Za-z]{40}$/), prefix: live.json.key.slice(0, 13), mode: 'live' });
    expect(test.json).toEqual({ id: UUID, key: expect.stringMatching(/^isp_test_[0-9A-Za-z]{40}$/), prefix: test.json.key.slice(0, 13), mode: 'test' });
    expect(expectRefused(noMerchant, 1)).toBe("merchant 'no-such-merchant' not found");
    expect(expectRefused(badMode, 2)).toMatch(/--mode/);

    const row = await stack.db.apiKey.findUniqueOrThrow({ where: { id: live.json.id } });
    expect(row).toMatchObject({ merchantId: merchant.id, name: 'pos-server', mode: 'live', keyHash: hashApiKey(live.json.key), scopes: [...API_KEY_SCOPES] });
    expect(JSON.stringify(row)).not.toContain(live.json.key);
    const entry = await stack.db.auditLog.findFirstOrThrow({ where: { merchantId: merchant.id, action: 'API_KEY_CREATED', targetId: live.json.id } });
    expect(entry).toMatchObject({ actorType: 'OPERATOR', targetType: 'API_KEY' });
    expect(JSON.stringify(entry.details)).not.toContain(live.json.key);

    // The key works against the API, for its own business only.
    const stores = `/api/merchants/${merchant.externalId}/stores`;
    expect((await call(stack.apiUrl, 'GET', stores, { key: live.json.key })).status).toBe(200);
    expect((await call(stack.apiUrl, 'GET', stores, { headers: { Authorization: `Bearer ${live.json.key}` } })).status).toBe(200);
    // The last character changed (to another one: a key ending in 'x' once made this the same key).
    const altered = `${live.json.key.slice(0, -1)}${live.json.key.endsWith('x') ? 'y' : 'x'}`;
    expect((await call(stack.apiUrl, 'GET', stores, { key: altered })).status).toBe(401);
    const someoneElse = await createMerchant(stack.db, { externalId: uniqueId('m'), name: 'Other' });
    expect((await call(stack.apiUrl, 'GET', `/api/merchants/${someoneElse.externalId}/stores`, { key: live.json.key })).status).toBe(404);
  });
});

describe('terminal:link and terminal:unlink', () => {
  it('links a registered terminal to its device (ready), refuses wrong selectors, and unlinks it', async () => {
    const { merchant, key } = await createMerchantWithKey(stack.db);
    const base = `/api/merchants/${merchant.externalId}/stores`;
    const store = await call(stack.apiUrl, 'POST', base, { key, body: { name: 'Main Street', country: 'de', timezone: 'Europe/Berlin' } });
    const otherStore = await call(stack.apiUrl, 'POST', base, { key, body: { name: 'Harbour', country: 'DE', timezone: 'Europe/Berlin' } });
    expect([store.status, otherStore.status]).toEqual([201, 201]);
    const terminalsPath = `${base}/${store.body.externalId}/terminals`;
    const terminal = await call(stack.apiUrl, 'POST', terminalsPath, {
      key,
      body: { label: 'Till 1', terminalType: 'POS', vendor: 'Acme', serialNumber: uniqueId('SN') },
    });
    const second = await call(stack.apiUrl, 'POST', terminalsPath, { key, body: { label: 'Till 2' } });
    expect([terminal.status, second.status]).toEqual([201, 201]);
    expect(terminal.body.ready).toBe(false);
    const terminalPath = `${terminalsPath}/${terminal.body.externalId}`;
    const selectors = ['--merchant', merchant.externalId, '--store', store.body.externalId, '--terminal', terminal.body.externalId];
    const device = uniqueId('device');

    const linked = await runAdmin(['terminal:link', ...selectors, '--device', device, '--two-step', '--no-void', '--json']);
    expect({ code: linked.code, stderr: linked.stderr }).toEqual({ code: 0, stderr: '' });
    expect(linked.json).toMatchObject({
      externalId: terminal.body.externalId,
      ready: true,
      deviceId: device,
      twoStep: true,
      voidSupported: false,
      linkedAt: ISO,
    });
    // The operator's view is the API's terminal record plus the device link.
    const afterLink = await call(stack.apiUrl, 'GET', terminalPath, { key });
    expect(afterLink.body.ready).toBe(true);
    const { deviceId, twoStep, voidSupported, linkedAt, ...record } = linked.json;
    expect(record).toEqual(afterLink.body);
    expect(await stack.db.terminal.findFirstOrThrow({ where: { externalId: terminal.body.externalId } })).toMatchObject({
      deviceId: device,
      twoStep: true,
      voidSupported: false,
    });

    const link = (merchantId: string, storeId: string, terminalId: string, deviceId: string) =>
      runAdmin(['terminal:link', '--merchant', merchantId, '--store', storeId, '--terminal', terminalId, '--device', deviceId, '--json']);
    const foreign = await createMerchant(stack.db, { externalId: uniqueId('m'), name: 'Foreign' });
    const [wrongStore, wrongMerchant, deviceTaken, noDevice] = await Promise.all([
      link(merchant.externalId, otherStore.body.externalId, terminal.body.externalId, uniqueId('d')),
      link(foreign.externalId, store.body.externalId, terminal.body.externalId, uniqueId('d')),
      link(merchant.externalId, store.body.externalId, second.body.externalId, device),
      runAdmin(['terminal:link', ...selectors, '--json']),
    ]);
    expect(expectRefused(wrongStore, 1)).toBe(
      `terminal '${terminal.body.externalId}' not found in store '${otherStore.body.externalId}' of merchant '${merchant.externalId}'`,
    );
    expect(expectRefused(wrongMerchant, 1)).toBe(`store '${store.body.externalId}' not found for merchant '${foreign.externalId}'`);
    expect(expectRefused(deviceTaken, 1)).toMatch(new RegExp(`^device '${device}' is already linked to terminal '${terminal.body.externalId}'`));
    expect(expectRefused(noDevice, 2)).toMatch(/--device/);
    expect((await call(stack.apiUrl, 'GET', `${terminalsPath}/${second.body.externalId}`, { key })).body.ready).toBe(false);

    const unlinked = await runAdmin(['terminal:unlink', ...selectors, '--json']);
    expect(unlinked.code).toBe(0);
    expect(unlinked.json).toMatchObject({ externalId: terminal.body.externalId, ready: false, deviceId: null, linkedAt: null });
    expect((await call(stack.apiUrl, 'GET', terminalPath, { key })).body.ready).toBe(false);

    // Without --json: a short line for people, not JSON.
    const human = await runAdmin(['terminal:link', ...selectors, '--device', device]);
    expect(human.code).toBe(0);
    expect(human.json).toBeUndefined();
    expect(human.stdout.trim()).toBe(`terminal '${terminal.body.externalId}' (Till 1) linked to device '${device}' (one-step, void supported); ready`);
    expect((await call(stack.apiUrl, 'GET', terminalPath, { key })).body.ready).toBe(true);
    expect(await stack.db.auditLog.count({ where: { merchantId: merchant.id, action: { in: ['TERMINAL_LINKED', 'TERMINAL_UNLINKED'] } } })).toBe(3);
  });
});

describe('usage', () => {
  it('answers bad usage with exit code 2, one line on stderr and nothing on stdout', async () => {
    const [unknownCommand, missingOption, plain] = await Promise.all([
      runAdmin(['merchant:delete', '--json']),
      runAdmin(['merchant:create', '--external-id', uniqueId('m'), '--json']),
      runAdmin(['merchant:create', '--name', 'No Id']),
    ]);
    expect(expectRefused(unknownCommand, 2)).toMatch(/unknown command 'merchant:delete'/);
    expect(expectRefused(missingOption, 2)).toMatch(/required option '--name <name>' not specified/);
    expect({ code: plain.code, stdout: plain.stdout }).toEqual({ code: 2, stdout: '' });
    expect(plain.stderr.trim()).toBe("error: required option '--external-id <id>' not specified");
  });
});
