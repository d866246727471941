import { startDeliveryRun, type DispatchDeps } from './dispatch';
import { newTestEventId, storedBody, testEventBody } from './payload';

export interface QueuedDelivery {
  configId: string;
  status: 'PENDING';
  attempts: number;
}

/**
 * A TEST event for one destination, sent now whatever its event selection (the caller asked for
 * it by name). When the workflow cannot be started, the rows are removed again so the history
 * never shows a delivery that nobody will attempt.
 */
export async function sendTestEvent(
  deps: DispatchDeps,
  config: { id: string; merchantId: string; mode: string },
  merchantExternalId: string,
): Promise<{ eventId: string; deliveries: QueuedDelivery[] }> {
  const eventId = newTestEventId();
  const stored = storedBody(testEventBody(eventId, merchantExternalId, new Date()));
  const delivery = await deps.db.$transaction(async (tx) => {
    await tx.webhookEvent.create({ data: { id: eventId, merchantId: config.merchantId, mode: config.mode, eventType: 'TEST', ...stored } });
    return tx.webhookDelivery.create({ data: { eventId, configId: config.id }, select: { id: true, eventId: true, configId: true } });
  });
  try {
    await startDeliveryRun(deps, delivery, 'first');
  } catch (err) {
    await deps.db.webhookEvent.delete({ where: { id: eventId } }).catch(() => undefined);
    throw err;
  }
  return { eventId, deliveries: [{ configId: config.id, status: 'PENDING', attempts: 0 }] };
}

/**
 * Manual redelivery of one event to the given destinations: each delivery (created when the
 * destination never had this event) goes back to PENDING and gets a fresh workflow run that
 * attempts at once; a run still retrying is replaced. Attempt numbers continue where they were.
 */
export async function redeliverEvent(deps: DispatchDeps, eventId: string, configIds: string[]): Promise<QueuedDelivery[]> {
  const queued: QueuedDelivery[] = [];
  for (const configId of configIds) {
    const before = await deps.db.webhookDelivery.findUnique({ where: { eventId_configId: { eventId, configId } }, select: { status: true } });
    const delivery = await deps.db.webhookDelivery.upsert({
      where: { eventId_configId: { eventId, configId } },
      create: { eventId, configId },
      update: { status: 'PENDING' },
      select: { id: true, eventId: true, configId: true, attempts: true },
    });
    try {
      await startDeliveryRun(deps, delivery, 'redeliver');
    } catch (err) {
      // Put the history back as it was: nothing will attempt this delivery.
      if (before) await deps.db.webhookDelivery.update({ where: { id: delivery.id }, data: { status: before.status } }).catch(() => undefined);
      else await deps.db.webhookDelivery.delete({ where: { id: delivery.id } }).catch(() => undefined);
      throw err;
    }
    queued.push({ configId, status: 'PENDING', attempts: delivery.attempts });
  }
  return queued;
}
