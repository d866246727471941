import crypto from 'node:crypto';
import { createActivities } from '../../activities';
import { createAcquirers } from '../../src/acquirer/acquirers';
import { createLogger } from '../../src/logger';
import type { Merchant } from '../../src/generated/prisma/client';
import type { TestStack } from '../support/stack';
import { uniqueId } from '../support/fixtures';

/**
 * Drives the real publishing path without the payment workflow: a Payment and its status history
 * written as the payment projection writes them, then the publishPaymentEvent activity the
 * workflow calls after each status event, bound to the stack's real dependencies.
 */
export function activitiesOf(stack: TestStack) {
  const acquirers = createAcquirers(stack.config, stack.sandboxUrl, stack.db);
  return createActivities({
    config: stack.config,
    db: stack.db,
    temporal: stack.client,
    acquirer: acquirers.live,
    acquirers,
    logger: createLogger('silent'),
  });
}

export interface PaymentFields {
  amount?: string;
  currency?: string;
  reference?: string | null;
  cardBrand?: string | null;
  last4?: string | null;
  paymentMethod?: string | null;
  mode?: 'live' | 'test';
}

export async function createPayment(stack: TestStack, merchant: Merchant, fields: PaymentFields = {}) {
  const id = crypto.randomUUID();
  return stack.db.payment.create({
    data: {
      id,
      merchantId: merchant.id,
      storeExternalId: uniqueId('store'),
      terminalExternalId: uniqueId('term'),
      mode: fields.mode ?? 'live',
      pspReference: uniqueId('PSP'),
      status: 'AWAITING_TERMINAL',
      amount: fields.amount ?? '12.50',
      currency: fields.currency ?? 'EUR',
      reference: fields.reference === undefined ? uniqueId('bill') : fields.reference,
      requestedModes: [],
      paymentMethod: fields.paymentMethod === undefined ? 'CARD' : fields.paymentMethod,
      cardBrand: fields.cardBrand ?? null,
      last4: fields.last4 ?? null,
      acquirerName: 'sandbox',
      terminalTimeoutMinutes: '5',
      workflowId: `payment-${id}`,
      expiresAt: new Date(Date.now() + 10 * 60_000),
      historySequence: 1,
      history: {
        create: { sequence: 1, status: 'AWAITING_TERMINAL', actionReference: 'CREATE', source: 'API', occurredAt: new Date() },
      },
    },
  });
}

/** Appends a status event to the payment's history (and projection), as the workflow would. */
export async function recordStatus(stack: TestStack, paymentId: string, status: string, patch: { cardBrand?: string; last4?: string } = {}) {
  const payment = await stack.db.payment.findUniqueOrThrow({ where: { id: paymentId } });
  const sequence = payment.historySequence + 1;
  const occurredAt = new Date();
  await stack.db.payment.update({
    where: { id: paymentId },
    data: {
      status,
      previousStatus: payment.status,
      historySequence: sequence,
      ...patch,
      ...(status === 'CAPTURED' ? { capturedAt: occurredAt } : {}),
      history: { create: { sequence, status, previousStatus: payment.status, actionReference: `ACT-${sequence}`, source: 'WORKFLOW', occurredAt } },
    },
  });
  return { sequence, occurredAt };
}
