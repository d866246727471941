-- Money after the sale (docs/payments.md, docs/refunds.md): two-step completion and refunds.
-- capturedAmount: null until captured (a two-step completion may take less than was authorised);
-- refundedAmount: the sum of succeeded refunds; settledAt: set by settlement.
ALTER TABLE "Payment" ADD COLUMN "capturedAmount" DECIMAL(20,4);
ALTER TABLE "Payment" ADD COLUMN "refundedAmount" DECIMAL(20,4) NOT NULL DEFAULT 0;
ALTER TABLE "Payment" ADD COLUMN "settledAt" TIMESTAMPTZ(3);
-- When the acquirer approved a two-step payment: the authorisation window runs from it.
ALTER TABLE "Payment" ADD COLUMN "authorizedAt" TIMESTAMPTZ(3);
-- The terminal's two-step setting when the payment was created (a later re-link does not change it).
ALTER TABLE "Payment" ADD COLUMN "twoStep" BOOLEAN NOT NULL DEFAULT false;
-- Payments captured before this migration were one-step: all of the amount was captured.
UPDATE "Payment" SET "capturedAmount" = "amount" WHERE "capturedAt" IS NOT NULL;

-- One refund: a money movement back to the customer, decided by the acquirer. Written only by
-- the payment's workflow (the one writer); refundReference is the stable reference the acquirer
-- receives, so a retried submission can never pay twice.
CREATE TABLE "Refund" (
    "id" TEXT NOT NULL,
    "merchantId" TEXT NOT NULL,
    "paymentId" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "refundReference" TEXT NOT NULL,
    "amount" DECIMAL(20,4) NOT NULL,
    "currency" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "reason" TEXT,
    "failureReason" TEXT,
    "idempotencyKey" TEXT,
    "requestFingerprint" TEXT,
    "createdBy" TEXT NOT NULL,
    "createdByUserId" INTEGER,
    "decidedAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "Refund_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "Refund_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Refund_paymentId_fkey" FOREIGN KEY ("paymentId") REFERENCES "Payment"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE UNIQUE INDEX "Refund_refundReference_key" ON "Refund"("refundReference");
CREATE INDEX "Refund_paymentId_createdAt_idx" ON "Refund"("paymentId", "createdAt");
CREATE INDEX "Refund_paymentId_idempotencyKey_idx" ON "Refund"("paymentId", "idempotencyKey");
CREATE INDEX "Refund_status_createdAt_idx" ON "Refund"("status", "createdAt");
CREATE INDEX "Refund_merchantId_createdAt_idx" ON "Refund"("merchantId", "createdAt");
