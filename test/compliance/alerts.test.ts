import { complianceScheduleId } from '../../src/compliance/daily';
import { call, expectErrorShape } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';
import { eventually } from '../payments/helpers';
import { signedInUser } from '../users/helpers';
import { adminOf, sandboxAccount } from '../acquirerAccounts/helpers';
import { capturedPayment, desk, type Desk, disputeOf, openAtSandbox, refund } from '../disputes/helpers';

/**
 * Compliance alerts (docs/disputes.md, "Compliance alerts") on the real stack, with thresholds small enough to reach: a
 * chargeback ratio above 0.3 with 1 dispute, a refund ratio above 0.5 with 1 refund. Raised when a
 * dispute opens or a refund succeeds, resolved by the daily evaluation once more payments were
 * captured; COMPLIANCE_ALERT_RAISED and COMPLIANCE_ALERT_RESOLVED events; who may read them.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({
    COMPLIANCE_CHARGEBACK_RATIO: '0.3',
    COMPLIANCE_CHARGEBACK_MIN_COUNT: '1',
    COMPLIANCE_REFUND_RATIO: '0.5',
    COMPLIANCE_REFUND_MIN_COUNT: '1',
  });
});
afterAll(async () => {
  await stack?.stop();
});

const alerts = (token: string, query = '') => call(stack.apiUrl, 'GET', `/api/dashboard/compliance-alerts${query}`, { token });
const alertEvents = (merchantId: string) =>
  stack.db.webhookEvent
    .findMany({ where: { merchantId, eventType: { startsWith: 'COMPLIANCE_' } }, orderBy: { createdAt: 'asc' } })
    .then((rows) => rows.map((r) => JSON.parse(r.body!)));
const alertsOf = async (d: Desk, status: string) => (await alerts(d.compliance, `?status=${status}`)).body.content as Record<string, any>[];

it('a dispute raises CHARGEBACK_RATIO for its store; the daily evaluation resolves it once more payments are captured', async () => {
  const d = await desk(stack);
  const disputed = await capturedPayment(stack, d, 40);
  await capturedPayment(stack, d, 10);
  expect(await alertsOf(d, 'OPEN')).toEqual([]);

  expect((await openAtSandbox(stack, disputed.pspReference)).status).toBe(201);
  await disputeOf(stack, d, disputed.id);
  // 1 dispute over 2 captured payments: 0.5 > 0.3, with 1 dispute (at least 1)
  const [raised] = await eventually(async () => {
    const open = await alertsOf(d, 'OPEN');
    return open.length ? open : undefined;
  });
  expect(raised).toEqual({
    id: expect.any(String),
    type: 'CHARGEBACK_RATIO',
    scope: 'STORE',
    storeExternalId: d.shop.storeExternalId,
    acquirerAccountId: null, // the installation default is no acquirer account: no ACQUIRER_ACCOUNT alert
    windowDays: 30,
    count: 1,
    ratio: 0.5,
    threshold: 0.3,
    status: 'OPEN',
    raisedAt: expect.stringMatching(/Z$/),
    resolvedAt: null,
  });
  // The alert and its event commit together: an alert the API shows has its event recorded.
  expect(await alertEvents(d.shop.merchantId)).toEqual([
    {
      eventId: expect.stringMatching(/^evt_/),
      eventType: 'COMPLIANCE_ALERT_RAISED',
      merchantExternalId: d.merchant.externalId,
      timestamp: raised!.raisedAt,
      data: { alert: raised },
    },
  ]);

  // Two more captured: 1 over 4 is 0.25, under 0.3. Capturing evaluates nothing; the daily evaluation does.
  await capturedPayment(stack, d, 10);
  await capturedPayment(stack, d, 10);
  expect(await alertsOf(d, 'OPEN')).toHaveLength(1);
  await stack.client.schedule.getHandle(complianceScheduleId(stack.config)).trigger();
  const [resolved] = await eventually(async () => {
    const done = await alertsOf(d, 'RESOLVED');
    return done.length ? done : undefined;
  });
  expect(resolved).toEqual({ ...raised, status: 'RESOLVED', count: 1, ratio: 0.25, resolvedAt: expect.stringMatching(/Z$/) });
  expect(await alertsOf(d, 'OPEN')).toEqual([]);
  // Resolved and its event, in one commit as well.
  const events = await alertEvents(d.shop.merchantId);
  expect(events).toHaveLength(2);
  expect(events[1]).toMatchObject({ eventType: 'COMPLIANCE_ALERT_RESOLVED', timestamp: resolved!.resolvedAt, data: { alert: resolved } });
  // The list without a filter has it, once.
  expect((await alerts(d.compliance)).body).toMatchObject({ content: [resolved], totalElements: 1, page: 0, size: 20 });
});

it('a refund that succeeds raises REFUND_RATIO for its store, once however many refunds follow', async () => {
  const d = await desk(stack);
  const p = await capturedPayment(stack, d, 40);
  expect((await refund(stack, d.finance, p.id, { amount: 30 })).status).toBe(201);
  // 30 refunded over 40 captured: 0.75 > 0.5
  const [raised] = await eventually(async () => {
    const open = await alertsOf(d, 'OPEN');
    return open.length ? open : undefined;
  });
  expect(raised).toMatchObject({ type: 'REFUND_RATIO', scope: 'STORE', storeExternalId: d.shop.storeExternalId, count: 1, ratio: 0.75, threshold: 0.5 });
  expect((await refund(stack, d.finance, p.id, { amount: 5 })).status).toBe(201);
  await eventually(async () => ((await alertsOf(d, 'OPEN'))[0]?.count === 2 ? true : undefined));
  expect(await alertsOf(d, 'OPEN')).toEqual([{ ...raised, count: 2, ratio: 0.875 }]);
  expect((await alertEvents(d.shop.merchantId)).map((e) => e.eventType)).toEqual(['COMPLIANCE_ALERT_RAISED']);
});

it("per MID: a dispute of a payment an acquirer account took raises the account's alert beside its store's", async () => {
  const d = await desk(stack);
  const mode = (await stack.db.store.findUniqueOrThrow({ where: { id: d.shop.storeId } })).mode as 'live' | 'test';
  const admin = await adminOf(stack, d.merchant);
  const account = await sandboxAccount(admin, mode, `MID-${d.shop.deviceId}`);
  expect((await admin.saveRoutes({ mode, rules: [], defaultAccountId: account })).status).toBe(200);
  const p = await capturedPayment(stack, d, 40);
  expect((await stack.db.payment.findUniqueOrThrow({ where: { id: p.id } })).acquirerAccountId).toBe(account);
  expect((await openAtSandbox(stack, p.pspReference)).status).toBe(201);
  const open = await eventually(async () => {
    const rows = await alertsOf(d, 'OPEN');
    return rows.length === 2 ? rows : undefined;
  });
  expect(open.map((a) => [a.type, a.scope, a.storeExternalId, a.acquirerAccountId, a.ratio]).sort()).toEqual([
    ['CHARGEBACK_RATIO', 'ACQUIRER_ACCOUNT', null, account, 1],
    ['CHARGEBACK_RATIO', 'STORE', d.shop.storeExternalId, null, 1],
  ]);
});

it('ADMIN and COMPLIANCE read; FINANCE, OPERATIONS and USER 403; an API key 401; another business sees none; a bad status 400 naming it', async () => {
  const d = await desk(stack);
  const other = await desk(stack);
  const p = await capturedPayment(stack, other, 20);
  expect((await refund(stack, other.finance, p.id, { amount: 20 })).status).toBe(201);
  await eventually(async () => ((await alertsOf(other, 'OPEN')).length ? true : undefined));

  const { token: admin } = await signedInUser(stack.db, stack.apiUrl, d.merchant, ['ADMIN']);
  expect((await alerts(admin)).status).toBe(200);
  expect((await alerts(d.compliance)).body.content).toEqual([]);
  for (const roles of [['FINANCE'], ['OPERATIONS'], ['USER']] as const) {
    const { token } = await signedInUser(stack.db, stack.apiUrl, d.merchant, [...roles]);
    expectErrorShape(await alerts(token), 403);
  }
  expectErrorShape(await call(stack.apiUrl, 'GET', '/api/dashboard/compliance-alerts', { key: d.shop.key }), 401);
  const bad = await alerts(d.compliance, '?status=CLOSED');
  expect(expectErrorShape(bad, 400)).toMatch(/status/);
});
