// Every workflow the worker runs. Deterministic code only: no Node, database or network imports.
export {};
export { webhookDeliveryWorkflow } from './webhooks/delivery';
export { paymentWorkflow } from './payment/paymentWorkflow';
export { paymentSweepWorkflow } from './sweep/sweepWorkflow';
export { settlementCloseWorkflow } from './settlement/closeWorkflow';
export { settlementAutoCloseWorkflow } from './settlement/autoCloseWorkflow';
export { disputeWorkflow } from './dispute/disputeWorkflow';
export { payoutWorkflow } from './payout/payoutWorkflow';
export { complianceDailyWorkflow } from './compliance/dailyWorkflow';
export { billWorkflow } from './bill/billWorkflow';
export { receiptWorkflow } from './receipt/receiptWorkflow';
