import type { Store, Terminal } from '../generated/prisma/client';
import type { StoreRecord, TerminalRecord } from './records';

export type { StoreRecord, TerminalRecord };

/**
 * The store and terminal records the API returns: externalId, the submitted fields (unset ones
 * null), status, createdAt and updatedAt; a terminal also its store and `ready`. Internal ids and
 * the operator's device link are never shown.
 */
export function toStoreRecord(s: Store): StoreRecord {
  return {
    externalId: s.externalId,
    name: s.name,
    addressLine1: s.addressLine1,
    city: s.city,
    postalCode: s.postalCode,
    country: s.country,
    timezone: s.timezone,
    defaultCurrency: s.defaultCurrency,
    mcc: s.mcc,
    metadata: (s.metadata ?? {}) as Record<string, unknown>,
    status: s.status,
    tipping: { enabled: s.tippingEnabled, percentages: s.tipPercentages, allowCustom: s.tipAllowCustom },
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/**
 * A terminal can take payments once the operator linked it to a device (`terminal:link` sets
 * deviceId and marks it fully registered); inactive status is a separate rule (payment REFUSED).
 */
export function isTerminalReady(t: Pick<Terminal, 'deviceId'>): boolean {
  return t.deviceId !== null && t.deviceId !== '';
}

export function toTerminalRecord(t: Terminal, storeExternalId: string): TerminalRecord {
  return {
    externalId: t.externalId,
    storeExternalId,
    label: t.label,
    terminalType: t.terminalType,
    vendor: t.vendor,
    model: t.model,
    serialNumber: t.serialNumber,
    metadata: (t.metadata ?? {}) as Record<string, unknown>,
    status: t.status,
    ready: isTerminalReady(t),
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}
