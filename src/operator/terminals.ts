import { audit } from '../audit/audit';
import type { Db } from '../db/client';
import type { Merchant, Store, Terminal } from '../generated/prisma/client';
import { toTerminalRecord, type TerminalRecord } from '../stores/serializers';
import { conflict, notFound } from '../domain/errors';
import { requireIdentifier, requireText } from './input';
import { findMerchant } from './merchants';

/** How the operator names one terminal: the business, its store, the terminal (all external ids). */
export interface TerminalSelector {
  merchantExternalId: string;
  storeExternalId: string;
  terminalExternalId: string;
}

/**
 * The terminal record the API returns, plus the device link that only the operator configures
 * and sees (deviceId, twoStep, voidSupported, linkedAt).
 */
export interface TerminalOperatorView extends TerminalRecord {
  deviceId: string | null;
  twoStep: boolean;
  voidSupported: boolean;
  linkedAt: string | null;
}

export function terminalOperatorView(t: Terminal, store: Pick<Store, 'externalId'>): TerminalOperatorView {
  return {
    ...toTerminalRecord(t, store.externalId),
    deviceId: t.deviceId,
    twoStep: t.twoStep,
    voidSupported: t.voidSupported,
    linkedAt: t.linkedAt ? t.linkedAt.toISOString() : null,
  };
}

/** The terminal only when it belongs to that store of that business; otherwise a not-found naming the missing part. */
export async function findTerminal(db: Db, sel: TerminalSelector): Promise<{ merchant: Merchant; store: Store; terminal: Terminal }> {
  const merchant = await findMerchant(db, requireText('merchant', sel.merchantExternalId, 200));
  const storeExternalId = requireText('store', sel.storeExternalId, 200);
  const terminalExternalId = requireText('terminal', sel.terminalExternalId, 200);
  const store = await db.store.findFirst({ where: { externalId: storeExternalId, merchantId: merchant.id } });
  if (!store) throw notFound(`store '${storeExternalId}'`, `for merchant '${merchant.externalId}'`);
  const terminal = await db.terminal.findFirst({ where: { externalId: terminalExternalId, storeId: store.id, merchantId: merchant.id } });
  if (!terminal) throw notFound(`terminal '${terminalExternalId}'`, `in store '${storeExternalId}' of merchant '${merchant.externalId}'`);
  return { merchant, store, terminal };
}

/**
 * Onboarding: links a registered terminal to its physical (or sandbox) device, which makes it
 * ready to take payments. Relinking replaces the previous link. One device serves one terminal:
 * the acquirer holds one bill per device.
 */
export async function linkTerminal(
  db: Db,
  input: TerminalSelector & { deviceId: string; twoStep?: boolean; voidSupported?: boolean; actorId?: string },
): Promise<TerminalOperatorView> {
  const deviceId = requireIdentifier('device', input.deviceId, 100);
  const { merchant, store, terminal } = await findTerminal(db, input);
  const other = await db.terminal.findFirst({ where: { deviceId, NOT: { id: terminal.id } }, select: { externalId: true } });
  if (other) throw conflict(`device '${deviceId}' is already linked to terminal '${other.externalId}'; unlink that terminal first`);
  const twoStep = input.twoStep ?? false;
  const voidSupported = input.voidSupported ?? true;
  const now = new Date();
  const linked = await db.$transaction(async (tx) => {
    const updated = await tx.terminal.update({ where: { id: terminal.id }, data: { deviceId, twoStep, voidSupported, linkedAt: now, updatedAt: now } });
    await audit(tx, {
      merchantId: merchant.id,
      actor: { type: 'OPERATOR', id: input.actorId ?? null },
      action: 'TERMINAL_LINKED',
      target: { type: 'TERMINAL', id: terminal.externalId },
      details: { storeExternalId: store.externalId, deviceId, twoStep, voidSupported, previousDeviceId: terminal.deviceId },
    });
    return updated;
  });
  return terminalOperatorView(linked, store);
}

/**
 * Removes the device link; the terminal is no longer ready. The device's capabilities go back to
 * their defaults with it, as they describe the link. Unlinking an unlinked terminal is harmless.
 */
export async function unlinkTerminal(db: Db, input: TerminalSelector & { actorId?: string }): Promise<TerminalOperatorView> {
  const { merchant, store, terminal } = await findTerminal(db, input);
  const unlinked = await db.$transaction(async (tx) => {
    const updated = await tx.terminal.update({ where: { id: terminal.id }, data: { deviceId: null, linkedAt: null, twoStep: false, voidSupported: true } });
    await audit(tx, {
      merchantId: merchant.id,
      actor: { type: 'OPERATOR', id: input.actorId ?? null },
      action: 'TERMINAL_UNLINKED',
      target: { type: 'TERMINAL', id: terminal.externalId },
      details: { storeExternalId: store.externalId, previousDeviceId: terminal.deviceId },
    });
    return updated;
  });
  return terminalOperatorView(unlinked, store);
}
