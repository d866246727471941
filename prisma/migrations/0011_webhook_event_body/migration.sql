-- The exact bytes of a webhook event's body, built once when the event is recorded: every attempt
-- signs and sends these. Null only for events recorded before this migration (their body is
-- rebuilt from "payload" in the documented order, docs/webhooks.md, as before).
ALTER TABLE "WebhookEvent" ADD COLUMN "body" TEXT;
