import type { Client } from '@temporalio/client';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Logger } from '../logger';
import { ensureIntervalSchedule } from '../temporal/intervalSchedule';
import { SETTLEMENT_AUTO_CLOSE_WORKFLOW } from '../../core/settlement';
import { addDays, businessDate, businessDayEnd } from './businessDate';
import { SYSTEM_CLOSER } from './batches';
import { startClose } from './closeStart';

/**
 * The daily close (SETTLEMENT_AUTO_CLOSE, docs/settlement.md, "Closing a batch"): a Temporal Schedule runs a short cycle
 * every SETTLEMENT_AUTO_CLOSE_CHECK_SECONDS; each cycle starts the close of every store whose
 * last business day has ended (its SETTLEMENT_CUTOFF_HOUR passed in its own time zone) and has
 * not been closed by the service yet. One SettlementAutoClose row per store and date records it,
 * so each business day is closed once by the service, whatever the number of workers.
 */
export interface DueClose {
  storeId: string;
  timezone: string;
  /** The business date that ended. */
  date: string;
}

/**
 * Pure: the stores whose last ended business day has no daily close yet. A day that ended before
 * the store existed has nothing to close.
 */
export function dueAutoCloses(stores: { id: string; timezone: string; createdAt: Date }[], done: Set<string>, now: Date, cutoffHour: number): DueClose[] {
  const due: DueClose[] = [];
  for (const s of stores) {
    const date = addDays(businessDate(now, s.timezone, cutoffHour), -1);
    if (done.has(`${s.id} ${date}`)) continue;
    if (businessDayEnd(date, s.timezone, cutoffHour) <= s.createdAt) continue;
    due.push({ storeId: s.id, timezone: s.timezone, date });
  }
  return due;
}

export async function startDueAutoCloses(deps: { db: Db; temporal: Client; config: Config; logger: Logger }, now = new Date()): Promise<number> {
  const { db, config } = deps;
  // Stores created after the cut-off that ended yesterday anywhere (at most UTC+14 ahead) have nothing due.
  const stores = await db.store.findMany({ where: { createdAt: { lt: now } }, select: { id: true, timezone: true, createdAt: true } });
  const candidates = dueAutoCloses(stores, new Set(), now, config.SETTLEMENT_CUTOFF_HOUR);
  if (candidates.length === 0) return 0;
  const markers = await db.settlementAutoClose.findMany({
    where: { OR: candidates.map((c) => ({ storeId: c.storeId, date: c.date })) },
    select: { storeId: true, date: true },
  });
  const done = new Set(markers.map((m) => `${m.storeId} ${m.date}`));
  let started = 0;
  for (const c of candidates) {
    if (done.has(`${c.storeId} ${c.date}`)) continue;
    const handle = await startClose(deps.temporal, config, { id: c.storeId, timezone: c.timezone }, SYSTEM_CLOSER, { now, autoCloseDate: c.date });
    if (handle) started += 1; // else a close of the store runs now: the next cycle tries again
  }
  if (started > 0) deps.logger.info({ started }, 'daily settlement closes started');
  return started;
}

export const autoCloseScheduleId = (config: Config): string =>
  config.TEMPORAL_TASK_QUEUE === 'in-store-payments' ? 'settlement-auto-close' : `settlement-auto-close-${config.TEMPORAL_TASK_QUEUE}`;

/** Creates, updates, or (SETTLEMENT_AUTO_CLOSE=false) deletes the daily close's Schedule. */
export async function ensureAutoCloseSchedule(client: Client, config: Config, logger: Logger): Promise<void> {
  const scheduleId = autoCloseScheduleId(config);
  if (!config.SETTLEMENT_AUTO_CLOSE) {
    await client.schedule
      .getHandle(scheduleId)
      .delete()
      .catch(() => undefined);
    return;
  }
  await ensureIntervalSchedule(client, {
    scheduleId,
    workflowType: SETTLEMENT_AUTO_CLOSE_WORKFLOW,
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    intervalMs: Math.round(config.SETTLEMENT_AUTO_CLOSE_CHECK_SECONDS * 1000),
  });
  logger.info({ scheduleId, cutoffHour: config.SETTLEMENT_CUTOFF_HOUR }, 'daily settlement close scheduled');
}
