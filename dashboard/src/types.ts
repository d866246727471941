import type { PaymentRecord } from '../../src/payments/record';
import type { RefundRecord } from '../../src/refunds/record';
import type { StoreRecord, TerminalRecord } from '../../src/stores/records';
import type { AttemptRecord, DeliveryHistoryEntry as ServerDeliveryHistoryEntry, WebhookConfigRecord } from '../../src/webhooks/recordTypes';

/**
 * The API's shapes the dashboard reads (contracts 2, 7, 8, 9). Payments, refunds, stores, terminals
 * and webhooks are the server's own record types (type imports, erased from the bundle); the rest
 * are still written here.
 */
type Mode = 'live' | 'test';
/** The dashboard API adds each store's and terminal's mode (src/http/routes/stores.ts). */
export type Store = StoreRecord & { mode: Mode };
export type Terminal = TerminalRecord & { mode: Mode };
/** The signing secret comes only on create and regenerate-key. */
export type WebhookConfig = WebhookConfigRecord & { secret?: string };
export type DeliveryHistoryEntry = ServerDeliveryHistoryEntry;
export type Attempt = AttemptRecord;
export interface User {
  id: number;
  username: string;
  displayName: string | null;
  email: string | null;
  enabled: boolean;
  locked: boolean;
  roles: string[];
  merchantExternalId: string;
  merchantName: string;
  mfaEnabled: boolean;
  mfaEnrollmentRequired: boolean;
  createdAt: string;
}

export interface Me {
  user: User;
  areas: string[];
}

/** The payment record of the API (contracts 2), as the server declares it; a dashboard read carries the mode. */
export type Payment = Omit<PaymentRecord, 'mode'> & { mode: 'live' | 'test' } & PaymentAcquirer;

/** Where a payment went (contracts 10): its acquirer account (null: the installation default), the acquirer and the route rule that chose it. */
export interface PaymentAcquirer {
  acquirerAccountId: string | null;
  acquirerName: string;
  /** A rule's name, `default` (the routes' default account) or `installation`. */
  routeRule: string;
}

export interface HistoryEntry {
  status: string;
  previousStatus: string | null;
  actionReference: string;
  source: string;
  occurredAt: string;
}

export interface WebhookEventSummary {
  eventId: string;
  eventType: string;
  createdAt: string;
  deliveries: { configId: string; url: string; status: string; attempts: number; updatedAt: string }[];
}

export interface PaymentDetail extends Payment {
  history: HistoryEntry[];
  webhookEvents: WebhookEventSummary[] | null;
}

export type Refund = RefundRecord;

export interface SettlementTotal {
  currency: string;
  paymentCount: number;
  grossAmount: number | string;
  refundCount: number;
  refundAmount: number | string;
  feeAmount: number | string;
  netAmount: number | string;
}

export interface Discrepancy {
  type: string;
  paymentId: string | null;
  acquirerRef: string | null;
  currency: string;
  expectedAmount: number | string | null;
  reportedAmount: number | string | null;
}

export interface Settlement {
  id: string;
  storeExternalId: string;
  date: string;
  timezone: string;
  mode: 'live' | 'test';
  status: string;
  closedAt: string;
  closedBy: string;
  totals: SettlementTotal[];
  discrepancies: Discrepancy[];
}

export interface SettlementLine {
  type: string;
  paymentId: string | null;
  pspReference: string | null;
  reference: string | null;
  amount: number | string;
  feeAmount: number | string;
  netAmount: number | string;
  currency: string;
  occurredAt: string;
}

export interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  mode: string;
  status: string;
  scopes: string[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  [field: string]: unknown;
}

export interface AuditEntry {
  id: string;
  action: string;
  actorType: string;
  actorId: string | null;
  targetType: string | null;
  targetId: string | null;
  details: Record<string, unknown>;
  createdAt: string;
}

export interface Summary {
  from: string;
  to: string;
  stores: { storeExternalId: string; currency: string; payments: number; captured: number; capturedAmount: number; refused: number; open: number }[];
  hours: { hour: string; status: string; count: number }[];
}

export type AcquirerName = 'sandbox' | 'stripe' | 'adyen';

/** An acquirer account (a MID, contracts 10); `credentials` masked by the API (`••••1234`). */
export interface AcquirerAccount {
  id: string;
  name: string;
  acquirer: AcquirerName;
  mode: Mode;
  merchantAccountId: string;
  status: 'ACTIVE' | 'INACTIVE';
  credentials: Record<string, string>;
  notificationPath: string;
  createdAt: string;
  updatedAt: string;
}

/** A route rule's conditions: every given one must hold. */
export interface RouteMatch {
  storeExternalIds?: string[];
  currencies?: string[];
  paymentModes?: ('CARD' | 'QR_CODE')[];
  minAmount?: number;
  maxAmount?: number;
}

export interface RouteRule {
  name: string;
  accountId: string;
  match: RouteMatch;
}

/** The routes of one mode (contracts 10); version 0 and no rules when never saved. */
export interface AcquirerRoutes {
  mode: Mode;
  rules: RouteRule[];
  defaultAccountId: string | null;
  version: number;
  updatedAt: string | null;
  updatedBy: string | null;
}
