/**
 * `evidence.transaction` (docs/disputes.md, "The evidence"; src/disputes/evidence.ts) as the API sends it: an object the
 * service assembled, typed loosely in the API document. Read here field by field into text, so a
 * missing or unexpected value shows as '—' or as its JSON, never breaks the page and is never markup.
 */
export interface EvidenceFacts {
  facts: { label: string; value: string }[];
  statusHistory: { status: string; previousStatus: string; source: string; actionReference: string; occurredAt: string }[];
  refunds: { id: string; amount: string; status: string; reason: string; createdAt: string; decidedAt: string }[];
  /** Fields this version does not know, by name, as JSON text. */
  other: { label: string; value: string }[];
}

export function text(v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

const record = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.map(record) : []);

function address(v: unknown): string {
  if (v === null || v === undefined) return '—';
  const a = record(v);
  const parts = [a.addressLine1, [a.postalCode, a.city].filter((x) => typeof x === 'string' && x).join(' '), a.country];
  const shown = parts.filter((x) => typeof x === 'string' && x) as string[];
  return shown.length ? shown.join(', ') : text(v);
}

const KNOWN = new Set([
  'pspReference',
  'reference',
  'amount',
  'currency',
  'capturedAt',
  'paymentMethod',
  'cardBrand',
  'last4',
  'storeName',
  'storeAddress',
  'terminalExternalId',
  'terminalSerialNumber',
  'cashierId',
  'statusHistory',
  'refunds',
]);

export function evidenceFacts(
  transaction: Record<string, unknown>,
  when: (iso: string | null) => string,
  money: (amount: string, currency: string) => string,
): EvidenceFacts {
  const t = transaction;
  const time = (v: unknown) => (typeof v === 'string' ? when(v) : text(v));
  const amount = t.amount === undefined || t.amount === null ? '—' : money(text(t.amount), text(t.currency));
  const card = [t.paymentMethod, t.cardBrand, typeof t.last4 === 'string' && t.last4 ? `•••• ${t.last4}` : null].filter((x) => typeof x === 'string' && x);
  return {
    facts: [
      { label: 'PSP reference', value: text(t.pspReference) },
      { label: 'Receipt reference', value: text(t.reference) },
      { label: 'Captured amount', value: amount },
      { label: 'Captured', value: time(t.capturedAt) },
      { label: 'Paid with', value: card.length ? card.join(' ') : '—' },
      { label: 'Store name', value: text(t.storeName) },
      { label: 'Store address', value: address(t.storeAddress) },
      { label: 'Terminal', value: text(t.terminalExternalId) },
      { label: 'Terminal serial number', value: text(t.terminalSerialNumber) },
      { label: 'Cashier', value: text(t.cashierId) },
    ],
    statusHistory: list(t.statusHistory).map((h) => ({
      status: text(h.status),
      previousStatus: text(h.previousStatus),
      source: text(h.source),
      actionReference: text(h.actionReference),
      occurredAt: time(h.occurredAt),
    })),
    refunds: list(t.refunds).map((r) => ({
      id: text(r.id),
      amount: money(text(r.amount), text(t.currency)),
      status: text(r.status),
      reason: text(r.reason),
      createdAt: time(r.createdAt),
      decidedAt: time(r.decidedAt),
    })),
    other: Object.entries(t)
      .filter(([k]) => !KNOWN.has(k))
      .map(([label, v]) => ({ label, value: text(v) })),
  };
}
