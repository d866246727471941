-- Webhook destinations and events belong to one mode (live or test), like the API key that
-- created the destination and the payment that raised the event: a test-mode payment never
-- reaches a live destination, and a key sees only its own mode's destinations and events.
ALTER TABLE "WebhookConfig" ADD COLUMN "mode" TEXT NOT NULL DEFAULT 'live';
ALTER TABLE "WebhookEvent" ADD COLUMN "mode" TEXT NOT NULL DEFAULT 'live';
CREATE INDEX "WebhookConfig_merchantId_mode_idx" ON "WebhookConfig"("merchantId", "mode");
