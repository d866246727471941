import type { ActivityDeps } from '../deps';

/**
 * Closes a delivery that will not be attempted again (retry schedule exhausted, destination
 * deleted, URL refused for good): PENDING becomes FAILED. A delivery already DELIVERED stays so.
 */
export function finishWebhookDeliveryActivity(deps: ActivityDeps) {
  return async function finishWebhookDelivery(input: { deliveryId: string }): Promise<void> {
    await deps.db.webhookDelivery.updateMany({ where: { id: input.deliveryId, status: 'PENDING' }, data: { status: 'FAILED' } });
  };
}
