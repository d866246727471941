-- Payments: the idempotency index counts the key's mode (a test key never meets a live payment),
-- and the one-open-bill-per-terminal index counts only bills that are (or may be) on the device:
-- an AUTHORIZED bill has left the device, so it must not block the terminal.
DROP INDEX IF EXISTS "Payment_open_reference_key";
CREATE UNIQUE INDEX "Payment_open_reference_key" ON "Payment"("merchantId", "mode", "reference", COALESCE("sequenceNumber", 0))
  WHERE "reference" IS NOT NULL AND "status" IN ('CREATED', 'AWAITING_TERMINAL', 'AUTHORIZED');
DROP INDEX IF EXISTS "Payment_open_terminal_key";
CREATE UNIQUE INDEX "Payment_open_terminal_key" ON "Payment"("terminalExternalId")
  WHERE "status" IN ('CREATED', 'AWAITING_TERMINAL');
-- Acquirer notifications name the bill; the service finds its payment by it.
CREATE INDEX "Payment_acquirerRef_idx" ON "Payment"("acquirerRef");
