// Shared by the API, the activities and the delivery workflow: no Node or database imports.

export const WEBHOOK_DELIVERY_WORKFLOW = 'webhookDeliveryWorkflow';

/** The retry schedule (docs/webhooks.md, "Retries"), in milliseconds, fixed when the delivery run starts. */
export interface WebhookRetrySchedule {
  initialIntervalMs: number;
  maximumIntervalMs: number;
  /** Schedule-to-close of the attempt activity: after this, the delivery is FAILED. */
  maxAgeMs: number;
  /** Timeout of one HTTP attempt. */
  attemptTimeoutMs: number;
}

export interface WebhookDeliveryInput {
  deliveryId: string;
  retry: WebhookRetrySchedule;
  /**
   * Set when the publishing step made the first attempt itself (epoch ms) and it failed: the run
   * continues the same schedule from its second attempt. Absent: the run makes the first attempt.
   */
  firstAttemptAtMs?: number;
}

export type WebhookDeliveryResult = 'DELIVERED' | 'FAILED' | 'STOPPED';

/** One workflow per (event, destination): the id says which, and guards against a second start. */
export function webhookDeliveryWorkflowId(eventId: string, configId: string): string {
  return `webhook-${eventId}-${configId}`;
}
