-- A payment event's first delivery attempt is made by the publishing step, without a workflow
-- (issue 13); the payment sweep hands deliveries whose first attempt or hand-over was lost (a crash)
-- to their delivery workflows. This index keeps that look-up small: only PENDING deliveries with
-- at most one attempt are in it.
CREATE INDEX "WebhookDelivery_stalled_idx" ON "WebhookDelivery" ("updatedAt") WHERE "status" = 'PENDING' AND "attempts" <= 1;
