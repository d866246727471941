import { grantActivities } from './grants';
import { AcquirerResolver } from '../src/acquirer/resolver';
import type { ActivityDeps } from './deps';
import { attemptWebhookDeliveryActivity } from './webhooks/attemptWebhookDelivery';
import { finishWebhookDeliveryActivity } from './webhooks/finishWebhookDelivery';
import { publishPaymentEventActivity } from './webhooks/publishPaymentEvent';
import { paymentAcquirerActivities } from './payments/acquirer';
import { paymentProjectionActivities } from './payments/projection';
import { recordAndPublishActivity } from './payments/recordAndPublish';
import { sendAndRecordActivity } from './payments/sendAndRecord';
import { readAndRecordActivity } from './payments/readAndRecord';
import { paymentSweepActivities } from './payments/sweep';
import { settlementActivities } from './settlement';
import { disputeActivities } from './disputes';
import { payoutActivities } from './payouts';
import { complianceActivities } from './compliance';
import { billActivities } from './bills';
import { receiptActivities } from './receipts';

/**
 * All activities, bound to their dependencies, for the worker to register. Workflows import the
 * type `Activities` to call them through proxyActivities.
 */
export function createActivities(deps: ActivityDeps) {
  // The one way from a record to its acquirer, with this worker's memory of which acquirer took
  // each payment (fixed at creation), shared by the calls, the projection, disputes and payouts.
  const resolver = new AcquirerResolver(deps.db, deps.acquirers);
  const publishPaymentEvent = publishPaymentEventActivity(deps);
  const projection = paymentProjectionActivities(deps, resolver);
  const acquirerCalls = paymentAcquirerActivities(deps, resolver);
  return {
    publishPaymentEvent,
    attemptWebhookDelivery: attemptWebhookDeliveryActivity(deps),
    finishWebhookDelivery: finishWebhookDeliveryActivity(deps),
    ...acquirerCalls,
    ...projection,
    recordStatusEventAndPublish: recordAndPublishActivity(projection.recordStatusEvent, publishPaymentEvent),
    // The projection's failure is only logged: the workflow writes it itself (its message only, no payment data).
    sendBillAndRecord: sendAndRecordActivity(acquirerCalls.sendBill, projection.recordStatusEvent, (err) =>
      deps.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'placement projection left to the workflow'),
    ),
    // The same for a read and its projection (core/payment/observation.ts).
    readBillAndRecord: readAndRecordActivity(acquirerCalls.readBill, projection.recordStatusEvent, (err) =>
      deps.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'read projection left to the workflow'),
    ),
    ...paymentSweepActivities(deps),
    ...settlementActivities(deps),
    ...disputeActivities(deps, resolver),
    ...payoutActivities(deps, resolver),
    ...complianceActivities(deps),
    ...billActivities(deps),
    ...receiptActivities(deps),
    ...grantActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
