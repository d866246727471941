import crypto from 'node:crypto';
import type { Db } from '../../src/db/client';
import type { Payment } from '../../src/generated/prisma/client';
import { refundReferenceOf } from '../../core/payment/messages';

/** A PENDING refund row as a workflow task that never completed leaves it: written, never taken by a run. */
export const orphanRefund = (db: Db, payment: Payment, amount: string, refundId: string = crypto.randomUUID()) =>
  db.refund.create({
    data: {
      id: refundId,
      merchantId: payment.merchantId,
      paymentId: payment.id,
      mode: payment.mode,
      refundReference: refundReferenceOf(refundId),
      amount,
      currency: 'EUR',
      status: 'PENDING',
      createdBy: 'lost-task',
    },
  });
