import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { findTerminal, type TerminalSelector } from '../operator/terminals';
import { ON_DEVICE_STATUSES } from '../../core/payment/statuses';
import { OPERATOR_VIEW } from '../fees/visibility';
import { type PaymentRecord, toPaymentRecord } from './record';
import { callPaymentWorkflow } from './workflowCalls';
import { DomainError } from '../domain/errors';

/**
 * terminal:clear (operator only, docs/payments.md, "terminal:clear (operator CLI)"): forces the open bill off the terminal's device.
 * The payment's workflow withdraws the bill; it ends CANCELLED (reason CLEARED_BY_OPERATOR), also
 * when the acquirer cannot be reached, unless the customer had already decided at the device (then
 * that outcome stands). Answers the payment, or null when no bill of the terminal is open.
 */
export async function clearTerminal(deps: { db: Db; temporal: Client; config: Config }, selector: TerminalSelector): Promise<PaymentRecord | null> {
  const { merchant, terminal } = await findTerminal(deps.db, selector);
  const open = await deps.db.payment.findFirst({
    where: { merchantId: merchant.id, terminalId: terminal.id, status: { in: [...ON_DEVICE_STATUSES] } },
    orderBy: { createdAt: 'desc' },
  });
  if (!open) return null;
  const answer = await callPaymentWorkflow(deps, open, merchant.externalId, 'operatorClear', []);
  // Refused (a grant that does not hold: this CLI's SECRETS_KEY is not the service's): said, never printed as done.
  if (answer.kind === 'rejected') throw new DomainError(answer.code, `terminal:clear refused by the payment's workflow: ${answer.message}`);
  return toPaymentRecord(await deps.db.payment.findUniqueOrThrow({ where: { id: open.id } }), OPERATOR_VIEW);
}
