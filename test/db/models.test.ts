/**
 * Every Prisma model written and read back with every field against the migrated database, so the
 * hand-written migration SQL and prisma/schema.prisma cannot drift apart unnoticed.
 */
import crypto from 'node:crypto';
import { createDb, isUniqueViolation, type Db } from '../../src/db/client';
import { listMigrations } from '../../src/db/migrate';
import { uniqueId } from '../support/fixtures';

let db: Db;
beforeAll(() => {
  db = createDb(process.env.TEST_DATABASE_URL!, { poolSize: 2 });
});
afterAll(async () => {
  await db.$disconnect();
});

it('has applied every migration', async () => {
  const rows = await db.$queryRaw<{ name: string }[]>`SELECT "name" FROM "_migrations" ORDER BY "name"`;
  expect(rows.map((r) => r.name)).toEqual(listMigrations().map((m) => m.name));
});

it('round-trips every model with every field', async () => {
  const now = new Date('2026-11-22T10:00:00.000Z');
  const merchant = await db.merchant.create({ data: { externalId: uniqueId('m'), name: 'Models Ltd' } });
  const user = await db.user.create({
    data: {
      merchantId: merchant.id,
      username: uniqueId('u'),
      passwordHash: 'h',
      displayName: 'D',
      email: 'd@example.com',
      roles: ['ADMIN', 'USER'],
      enabled: true,
      locked: false,
      failedLoginCount: 2,
      mfaSecret: 's',
      mfaEnabled: true,
      mfaEnrollmentRequired: false,
      mfaLastTimeStep: 59000001,
      deletedAt: now,
    },
  });
  const session = await db.session.create({
    data: { userId: user.id, tokenHash: uniqueId('t'), mfaPending: true, expiresAt: now, revokedAt: now, lastSeenAt: now },
  });
  const apiKey = await db.apiKey.create({
    data: {
      merchantId: merchant.id,
      name: 'k',
      mode: 'test',
      prefix: 'isp_test_abcd',
      keyHash: uniqueId('h'),
      scopes: ['payments'],
      expiresAt: now,
      revokedAt: now,
      replacedById: 'x',
      lastUsedAt: now,
    },
  });
  const audit = await db.auditLog.create({
    data: {
      merchantId: merchant.id,
      actorType: 'USER',
      actorId: String(user.id),
      action: 'SIGN_IN',
      targetType: 'USER',
      targetId: '1',
      details: { a: 1 },
      requestId: 'r',
    },
  });
  const store = await db.store.create({
    data: {
      merchantId: merchant.id,
      externalId: uniqueId('s'),
      name: 'S',
      addressLine1: 'A',
      city: 'C',
      postalCode: 'P',
      country: 'DE',
      timezone: 'Europe/Berlin',
      defaultCurrency: 'EUR',
      mcc: '5411',
      metadata: { k: 'v' },
      status: 'INACTIVE',
    },
  });
  const terminal = await db.terminal.create({
    data: {
      merchantId: merchant.id,
      storeId: store.id,
      externalId: uniqueId('t'),
      label: 'L',
      terminalType: 'POS',
      vendor: 'V',
      model: 'M',
      serialNumber: uniqueId('SN'),
      metadata: { k: 1 },
      status: 'ACTIVE',
      deviceId: 'dev',
      twoStep: true,
      voidSupported: false,
      linkedAt: now,
    },
  });
  const payment = await db.payment.create({
    data: {
      id: crypto.randomUUID(),
      merchantId: merchant.id,
      storeId: store.id,
      terminalId: terminal.id,
      storeExternalId: store.externalId,
      terminalExternalId: terminal.externalId,
      deviceId: 'dev',
      mode: 'live',
      pspReference: uniqueId('PSP'),
      status: 'CAPTURED',
      amount: '1234.5678',
      currency: 'EUR',
      reference: 'ref',
      sequenceNumber: 2,
      requestedModes: ['CARD'],
      paymentMethod: 'CARD',
      cardBrand: 'VISA',
      last4: '4242',
      previousStatus: 'AWAITING_TERMINAL',
      reason: 'r',
      refusalReason: 'rr',
      acquirerName: 'sandbox',
      acquirerRef: 'acq',
      origin: 'PLATFORM',
      terminalTimeoutMinutes: '2.5',
      cashierId: 'c',
      customerMobile: '+49',
      customerEmail: 'e@x.de',
      workflowId: 'wf',
      historySequence: 3,
      expiresAt: now,
      capturedAt: now,
      capturedAmount: '1000.5',
      refundedAmount: '0.25',
      settledAt: now,
      authorizedAt: now,
      twoStep: true,
    },
  });
  const refund = await db.refund.create({
    data: {
      id: crypto.randomUUID(),
      merchantId: merchant.id,
      paymentId: payment.id,
      mode: 'live',
      refundReference: uniqueId('REFUND'),
      amount: '0.25',
      currency: 'EUR',
      status: 'SUCCEEDED',
      reason: 'returned',
      failureReason: null,
      idempotencyKey: 'k1',
      requestFingerprint: 'f',
      createdBy: user.username,
      createdByUserId: user.id,
      decidedAt: now,
    },
  });
  const history = await db.paymentHistory.create({
    data: {
      paymentId: payment.id,
      sequence: 1,
      status: 'CAPTURED',
      previousStatus: 'AWAITING_TERMINAL',
      actionReference: 'CAPTURE-1',
      source: 'TERMINAL',
      occurredAt: now,
    },
  });
  const config = await db.webhookConfig.create({
    data: { merchantId: merchant.id, url: 'https://example.com/h', description: 'd', eventTypes: ['TEST'], secret: 'whsec', mode: 'test', deletedAt: now },
  });
  const event = await db.webhookEvent.create({
    data: { id: uniqueId('evt'), merchantId: merchant.id, paymentId: payment.id, eventType: 'TEST', mode: 'test', payload: { x: 'y' } },
  });
  const delivery = await db.webhookDelivery.create({ data: { eventId: event.id, configId: config.id, status: 'DELIVERED', attempts: 1 } });
  const attempt = await db.webhookAttempt.create({
    data: { deliveryId: delivery.id, attemptNumber: 1, requestedAt: now, responseStatus: 200, durationMs: 12, error: null, responseBody: 'ok' },
  });

  // Read everything back through relations.
  const back = await db.merchant.findUniqueOrThrow({
    where: { id: merchant.id },
    include: {
      users: { include: { sessions: true } },
      apiKeys: true,
      auditLogs: true,
      stores: { include: { terminals: { include: { payments: { include: { history: true, refunds: true } } } } } },
      webhookConfigs: { include: { deliveries: { include: { attemptLog: true, event: true } } } },
    },
  });
  expect(back.users[0]).toMatchObject({ roles: ['ADMIN', 'USER'], failedLoginCount: 2, mfaLastTimeStep: 59000001, deletedAt: now });
  expect(back.users[0]!.sessions[0]).toMatchObject({ id: session.id, mfaPending: true, lastSeenAt: now });
  expect(back.apiKeys[0]).toMatchObject({ id: apiKey.id, scopes: ['payments'], mode: 'test' });
  expect(back.auditLogs[0]).toMatchObject({ id: audit.id, details: { a: 1 } });
  const t = back.stores[0]!.terminals[0]!;
  expect(t).toMatchObject({ id: terminal.id, twoStep: true, voidSupported: false, metadata: { k: 1 } });
  const p = t.payments[0]!;
  expect(p.amount.toFixed()).toBe('1234.5678'); // exact decimal, never a float
  expect(p.terminalTimeoutMinutes.toFixed()).toBe('2.5');
  expect(p.history[0]).toMatchObject({ id: history.id, actionReference: 'CAPTURE-1' });
  expect(p.capturedAmount!.toFixed()).toBe('1000.5');
  expect(p.refundedAmount.toFixed()).toBe('0.25');
  expect(p).toMatchObject({ settledAt: now, authorizedAt: now, twoStep: true });
  expect(p.refunds[0]).toMatchObject({ id: refund.id, status: 'SUCCEEDED', idempotencyKey: 'k1', createdByUserId: user.id, decidedAt: now });
  expect(p.refunds[0]!.amount.toFixed()).toBe('0.25');
  const d = back.webhookConfigs[0]!.deliveries[0]!;
  expect(d.attemptLog[0]).toMatchObject({ id: attempt.id, responseStatus: 200, durationMs: 12 });
  expect(d.event).toMatchObject({ payload: { x: 'y' }, mode: 'test' });
  expect(back.webhookConfigs[0]).toMatchObject({ mode: 'test' });

  // Deleting a store keeps its payments readable (store and terminal links become null).
  await db.store.delete({ where: { id: store.id } });
  const kept = await db.payment.findUniqueOrThrow({ where: { id: payment.id } });
  expect(kept).toMatchObject({ storeId: null, terminalId: null, storeExternalId: store.externalId });
});

it('enforces the partial unique indexes of open payments', async () => {
  const merchant = await db.merchant.create({ data: { externalId: uniqueId('m'), name: 'Idem' } });
  const base = {
    merchantId: merchant.id,
    storeExternalId: 's',
    mode: 'live',
    amount: '1',
    currency: 'EUR',
    acquirerName: 'sandbox',
    terminalTimeoutMinutes: '5',
    workflowId: 'wf',
    expiresAt: new Date(),
  };
  const open = (terminal: string, reference: string, status = 'AWAITING_TERMINAL') =>
    db.payment.create({ data: { ...base, id: crypto.randomUUID(), pspReference: uniqueId('PSP'), terminalExternalId: terminal, reference, status } });
  const t1 = uniqueId('term');
  await open(t1, 'R1');
  // one open bill per terminal
  expect(isUniqueViolation(await open(t1, 'R2').catch((e: unknown) => e))).toBe(true);
  // one open payment per reference (another terminal)
  expect(isUniqueViolation(await open(uniqueId('term'), 'R1').catch((e: unknown) => e))).toBe(true);
  // final payments do not count
  await open(t1, 'R3', 'CAPTURED');
  await open(uniqueId('term'), 'R1', 'REFUSED');
});

it('round-trips the settlement models; a payment or refund is never in two batches (database rule)', async () => {
  const now = new Date('2026-11-22T10:00:00.000Z');
  const merchant = await db.merchant.create({ data: { externalId: uniqueId('m'), name: 'Settle Ltd' } });
  const store = await db.store.create({ data: { merchantId: merchant.id, externalId: uniqueId('s'), name: 'S', country: 'DE', timezone: 'Europe/Berlin' } });
  const batch = (id: string) => ({
    id,
    merchantId: merchant.id,
    storeId: store.id,
    storeExternalId: store.externalId,
    date: '2026-11-21',
    timezone: 'Europe/Berlin',
    status: 'SETTLED',
    closedAt: now,
    closedBy: 'SYSTEM',
    until: now,
    deviceIds: ['dev-1'],
    totals: [{ currency: 'EUR', grossAmount: '1.00' }],
  });
  const b1 = await db.settlementBatch.create({ data: batch(crypto.randomUUID()) });
  const b2 = await db.settlementBatch.create({ data: batch(crypto.randomUUID()) });
  const paymentId = crypto.randomUUID();
  const line = {
    type: 'PAYMENT',
    paymentId,
    acquirerRef: 'acq',
    pspReference: 'PSP',
    reference: 'r',
    amount: '12.5',
    feeAmount: '0.28',
    netAmount: '12.22',
    currency: 'EUR',
    occurredAt: now,
    reported: true,
    appliedAt: now,
  };
  await db.settlementLine.create({ data: { batchId: b1.id, ...line } });
  await db.settlementDiscrepancy.create({
    data: { batchId: b1.id, type: 'AMOUNT_MISMATCH', paymentId, acquirerRef: 'acq', currency: 'EUR', expectedAmount: '12.5', reportedAmount: '12' },
  });
  await db.settlementAutoClose.create({ data: { storeId: store.id, date: '2026-11-21', batchId: b1.id } });
  const back = await db.settlementBatch.findUniqueOrThrow({ where: { id: b1.id }, include: { lines: true, discrepancies: true } });
  expect(back).toMatchObject({ deviceIds: ['dev-1'], totals: [{ currency: 'EUR', grossAmount: '1.00' }], closedBy: 'SYSTEM' });
  expect(back.lines[0]!.netAmount!.toFixed()).toBe('12.22');
  expect(back.discrepancies[0]!.reportedAmount!.toFixed()).toBe('12');

  expect(isUniqueViolation(await db.settlementLine.create({ data: { batchId: b2.id, ...line } }).catch((e: unknown) => e))).toBe(true);
  const refund = { type: 'REFUND', paymentId, refundId: uniqueId('rf'), amount: '2', currency: 'EUR', occurredAt: now };
  await db.settlementLine.create({ data: { batchId: b1.id, ...refund } });
  expect(isUniqueViolation(await db.settlementLine.create({ data: { batchId: b2.id, ...refund } }).catch((e: unknown) => e))).toBe(true);
  // a dispute's money, each booking in one batch only (migrations 0024, 0027): one line per (dispute, booking)
  const disputeId = crypto.randomUUID();
  for (const [type, bookingRef] of [
    ['CHARGEBACK', 'txn_debit'],
    ['CHARGEBACK_REVERSAL', 'txn_credit'],
    ['CHARGEBACK', 'txn_second_debit'],
  ]) {
    const cb = {
      type,
      paymentId,
      disputeId,
      acquirerDisputeId: 'dp_1',
      bookingRef,
      amount: '5',
      netAmount: type === 'CHARGEBACK' ? '-5' : '5',
      currency: 'EUR',
      occurredAt: now,
    };
    await db.settlementLine.create({ data: { batchId: b1.id, ...cb } });
    expect(isUniqueViolation(await db.settlementLine.create({ data: { batchId: b2.id, ...cb } }).catch((e: unknown) => e))).toBe(true);
  }
  expect(await db.settlementLine.count({ where: { disputeId, type: 'CHARGEBACK' } })).toBe(2);
  // a chargeback line names its booking
  const unkeyed = { type: 'CHARGEBACK', paymentId, disputeId, acquirerDisputeId: 'dp_1', amount: '5', currency: 'EUR', occurredAt: now };
  expect(await db.settlementLine.create({ data: { batchId: b1.id, ...unkeyed } }).catch((e: unknown) => String(e))).toMatch(/SettlementLine_line_kind/);

  // a deleted store keeps its batches
  await db.store.delete({ where: { id: store.id } });
  expect(await db.settlementBatch.findUniqueOrThrow({ where: { id: b1.id } })).toMatchObject({ storeId: null, storeExternalId: store.externalId });
});

it('round-trips a dispute; one per (acquirer key, acquirer dispute id); the payment carries disputeStatus', async () => {
  const now = new Date('2026-11-26T10:00:00.000Z');
  const merchant = await db.merchant.create({ data: { externalId: uniqueId('m'), name: 'Disputes Ltd' } });
  const payment = await db.payment.create({
    data: {
      id: crypto.randomUUID(),
      merchantId: merchant.id,
      storeExternalId: 's',
      terminalExternalId: 't',
      mode: 'test',
      pspReference: uniqueId('PSP'),
      status: 'CAPTURED',
      amount: '10',
      currency: 'EUR',
      requestedModes: [],
      acquirerName: 'sandbox',
      terminalTimeoutMinutes: '5',
      workflowId: 'wf',
      expiresAt: now,
      disputeStatus: 'UNDER_REVIEW',
    },
  });
  const dispute = {
    merchantId: merchant.id,
    mode: 'test',
    paymentId: payment.id,
    pspReference: payment.pspReference,
    storeExternalId: 's',
    acquirerAccountId: null,
    acquirerName: 'sandbox',
    acquirerKey: 'installation:sandbox',
    acquirerDisputeId: uniqueId('dp'),
    status: 'UNDER_REVIEW',
    reason: 'FRAUD',
    amount: '9.9999',
    currency: 'EUR',
    openedAt: now,
    dueBy: now,
    evidence: { transaction: { pspReference: payment.pspReference }, text: '<b>text</b>' },
    submittedAt: now,
    closedAt: null,
  };
  const created = await db.dispute.create({ data: { id: crypto.randomUUID(), ...dispute } });
  const back = await db.payment.findUniqueOrThrow({ where: { id: payment.id }, include: { disputes: true } });
  expect(back.disputeStatus).toBe('UNDER_REVIEW');
  expect(back.disputes[0]).toMatchObject({ id: created.id, evidence: { text: '<b>text</b>' }, submittedAt: now, closedAt: null });
  expect(back.disputes[0]!.amount.toFixed()).toBe('9.9999');
  expect(isUniqueViolation(await db.dispute.create({ data: { id: crypto.randomUUID(), ...dispute } }).catch((e: unknown) => e))).toBe(true);
});

it('round-trips an Adyen dispute notice (migrations 0023, 0028); one per (acquirer account, dispute pspReference)', async () => {
  const now = new Date('2026-11-22T10:00:00.000Z');
  const notice = {
    acquirerAccountId: uniqueId('acct'),
    merchantAccount: uniqueId('mid'),
    disputePspReference: 'DZ4DPSHB4WD2WN82',
    paymentPspReference: '8816178914079738',
    acquirerRef: 'pay_1',
    status: 'NEEDS_RESPONSE',
    reason: 'FRAUD',
    amount: '40.0001',
    currency: 'EUR',
    openedAt: now,
    dueBy: now,
    eventCode: 'NOTIFICATION_OF_CHARGEBACK',
    eventDate: now,
  };
  await db.adyenDisputeNotice.create({ data: notice });
  const back = await db.adyenDisputeNotice.findUniqueOrThrow({
    where: { acquirerAccountId_disputePspReference: { acquirerAccountId: notice.acquirerAccountId, disputePspReference: notice.disputePspReference } },
  });
  expect(back).toMatchObject({ ...notice, amount: expect.anything(), updatedAt: expect.any(Date) });
  expect(back.amount.toFixed()).toBe('40.0001');
  expect(isUniqueViolation(await db.adyenDisputeNotice.create({ data: notice }).catch((e: unknown) => e))).toBe(true);
});

it('round-trips a compliance alert; one OPEN per type and target (migration 0025), any number RESOLVED', async () => {
  const now = new Date('2026-11-26T10:00:00.000Z');
  const merchant = await db.merchant.create({ data: { externalId: uniqueId('m'), name: 'Compliance Ltd' } });
  const alert = {
    merchantId: merchant.id,
    mode: 'test',
    type: 'CHARGEBACK_RATIO',
    scope: 'STORE',
    storeExternalId: 'berlin-1',
    acquirerAccountId: null,
    windowDays: '30',
    count: 125,
    ratio: '0.0125',
    threshold: '0.01',
    status: 'OPEN',
    raisedAt: now,
  };
  const created = await db.complianceAlert.create({ data: { id: crypto.randomUUID(), ...alert } });
  const back = await db.complianceAlert.findUniqueOrThrow({ where: { id: created.id } });
  expect(back).toMatchObject({
    type: 'CHARGEBACK_RATIO',
    scope: 'STORE',
    storeExternalId: 'berlin-1',
    count: 125,
    status: 'OPEN',
    raisedAt: now,
    resolvedAt: null,
  });
  expect(back.ratio.toFixed()).toBe('0.0125');
  expect(isUniqueViolation(await db.complianceAlert.create({ data: { id: crypto.randomUUID(), ...alert } }).catch((e: unknown) => e))).toBe(true);
  // another type, another target: their own
  await db.complianceAlert.create({ data: { id: crypto.randomUUID(), ...alert, type: 'REFUND_RATIO' } });
  await db.complianceAlert.create({
    data: { id: crypto.randomUUID(), ...alert, scope: 'ACQUIRER_ACCOUNT', storeExternalId: null, acquirerAccountId: 'acct-1' },
  });
  // resolved, a new one may open
  await db.complianceAlert.update({ where: { id: created.id }, data: { status: 'RESOLVED', resolvedAt: now } });
  await db.complianceAlert.create({ data: { id: crypto.randomUUID(), ...alert } });
});

it('round-trips a bill and its tenders (migration 0030); one bill per reference, store and mode while not final; a payment names its bill', async () => {
  const merchant = await db.merchant.create({ data: { externalId: uniqueId('m'), name: 'Bills Ltd' } });
  const at = new Date('2026-11-28T10:00:00.000Z');
  const bill = {
    id: crypto.randomUUID(),
    merchantId: merchant.id,
    storeId: null,
    storeExternalId: 'store-b',
    mode: 'test',
    reference: 'table-9',
    amount: '40.5',
    currency: 'EUR',
    status: 'OPEN',
    paidAmount: '10',
    timeoutMinutes: 30,
    expiresAt: at,
    closedAt: null,
    workflowId: 'bill-x',
  };
  await db.bill.create({ data: bill });
  const tender = {
    billId: bill.id,
    sequenceNumber: 1,
    paymentId: null,
    method: 'CASH',
    status: 'RECEIVED',
    amount: '10',
    requestedAmount: '10',
    refundedAmount: '0',
    tipAmount: '0',
    reference: 'drawer 1',
  };
  await db.billTender.create({ data: tender });
  const read = await db.bill.findUniqueOrThrow({ where: { id: bill.id }, include: { tenders: true } });
  expect({ ...read, amount: read.amount.toFixed(), paidAmount: read.paidAmount.toFixed() }).toMatchObject({ ...bill, amount: '40.5', paidAmount: '10' });
  expect(
    read.tenders.map((t) => ({
      ...t,
      amount: t.amount.toFixed(),
      requestedAmount: t.requestedAmount.toFixed(),
      refundedAmount: t.refundedAmount.toFixed(),
      tipAmount: t.tipAmount.toFixed(),
    })),
  ).toEqual([expect.objectContaining(tender)]);
  const again = { ...bill, id: crypto.randomUUID(), workflowId: 'bill-y' };
  const err = await db.bill.create({ data: again }).catch((e: unknown) => e);
  expect(isUniqueViolation(err)).toBe(true);
  await db.bill.update({ where: { id: bill.id }, data: { status: 'PAID', closedAt: at } });
  await db.bill.create({ data: again }); // a final bill frees its reference
});
