import type { RouteModule } from '../routeModule';
import { acquirerAccountRoutes } from './acquirerAccounts';
import { accountNotificationRoutes } from './accountNotifications';
import { acquirerNotificationRoutes } from './acquirerNotifications';
import { stripeWebhookRoutes } from './stripeWebhooks';
import { apiKeyRoutes } from './apiKeys';
import { costContractRoutes } from './costContracts';
import { payoutRoutes } from './payouts';
import { tipRoutes } from './tips';
import { auditLogRoutes } from './auditLogs';
import { authRoutes } from './auth';
import { dashboardRoutes } from './dashboard';
import { dashboardBillRoutes } from './dashboardBills';
import { healthRoutes } from './health';
import { paymentRoutes } from './payments';
import { billRoutes } from './bills';
import { settlementRoutes } from './settlements';
import { disputeRoutes } from './disputes';
import { complianceAlertRoutes } from './complianceAlerts';
import { refundRoutes } from './refunds';
import { receiptRoutes } from './receipts';
import { storeRoutes } from './stores';
import { dashboardStoreRoutes, terminalRoutes } from './terminals';
import { transactionRoutes } from './transactions';
import { userRoutes } from './users';
import { dashboardWebhookRoutes, webhookRoutes } from './webhooks';

/** Every route module of the API, in mount order. */
export const routeModules: RouteModule[] = [
  healthRoutes,
  transactionRoutes,
  storeRoutes,
  terminalRoutes,
  authRoutes,
  userRoutes,
  apiKeyRoutes,
  auditLogRoutes,
  webhookRoutes,
  paymentRoutes,
  billRoutes,
  refundRoutes,
  receiptRoutes,
  settlementRoutes,
  acquirerNotificationRoutes,
  stripeWebhookRoutes,
  accountNotificationRoutes,
  dashboardRoutes,
  dashboardBillRoutes,
  dashboardStoreRoutes,
  dashboardWebhookRoutes,
  acquirerAccountRoutes,
  costContractRoutes,
  payoutRoutes,
  tipRoutes,
  disputeRoutes,
  complianceAlertRoutes,
];
