-- Settlement and reconciliation (docs/settlement.md). A batch is one close of one store's open batch;
-- its lines are the payments and refunds it settled. Written only by the close workflow.
CREATE TABLE "SettlementBatch" (
    "id" TEXT NOT NULL,
    "merchantId" TEXT NOT NULL,
    "storeId" TEXT,
    "storeExternalId" TEXT NOT NULL,
    "date" TEXT NOT NULL,
    "timezone" TEXT NOT NULL,
    -- CLOSING while the close runs (not shown), then SETTLED, DISCREPANCY, or EMPTY (nothing to settle: not shown)
    "status" TEXT NOT NULL,
    "closedAt" TIMESTAMPTZ(3) NOT NULL,
    "closedBy" TEXT NOT NULL,
    -- payments captured and refunds paid up to this instant belong to the batch
    "until" TIMESTAMPTZ(3) NOT NULL,
    -- the acquirer devices asked for their report, fixed when the batch opened
    "deviceIds" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "totals" JSONB NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "SettlementBatch_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "SettlementBatch_merchantId_fkey" FOREIGN KEY ("merchantId") REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    -- a deleted store keeps its batches readable, as it keeps its payments
    CONSTRAINT "SettlementBatch_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "Store"("id") ON DELETE SET NULL ON UPDATE CASCADE
);
CREATE INDEX "SettlementBatch_merchantId_date_idx" ON "SettlementBatch"("merchantId", "date");
CREATE INDEX "SettlementBatch_storeId_closedAt_idx" ON "SettlementBatch"("storeId", "closedAt");

-- A payment or refund claimed by a batch. The partial unique indexes are the rule that no
-- payment and no refund is ever in two batches: a claim that meets one is skipped by the database.
-- A claimed payment the acquirer did not report is released (its line deleted) for the next batch.
CREATE TABLE "SettlementLine" (
    "id" BIGSERIAL NOT NULL,
    "batchId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "paymentId" TEXT,
    "refundId" TEXT,
    "acquirerRef" TEXT,
    "pspReference" TEXT,
    "reference" TEXT,
    "amount" DECIMAL(20,4) NOT NULL,
    "feeAmount" DECIMAL(20,4),
    "netAmount" DECIMAL(20,4),
    "currency" TEXT NOT NULL,
    "occurredAt" TIMESTAMPTZ(3) NOT NULL,
    -- true once the acquirer's report carried it
    "reported" BOOLEAN NOT NULL DEFAULT false,
    -- when the payment was marked settled (its workflow applied it, or the row was written settled)
    "appliedAt" TIMESTAMPTZ(3),
    CONSTRAINT "SettlementLine_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "SettlementLine_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "SettlementBatch"("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "SettlementLine_payment_or_refund" CHECK (("type" = 'PAYMENT' AND "paymentId" IS NOT NULL AND "refundId" IS NULL) OR ("type" = 'REFUND' AND "refundId" IS NOT NULL))
);
CREATE UNIQUE INDEX "SettlementLine_paymentId_key" ON "SettlementLine"("paymentId") WHERE "type" = 'PAYMENT';
CREATE UNIQUE INDEX "SettlementLine_refundId_key" ON "SettlementLine"("refundId") WHERE "type" = 'REFUND';
CREATE INDEX "SettlementLine_batchId_id_idx" ON "SettlementLine"("batchId", "id");

CREATE TABLE "SettlementDiscrepancy" (
    "id" BIGSERIAL NOT NULL,
    "batchId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "paymentId" TEXT,
    "acquirerRef" TEXT,
    "currency" TEXT NOT NULL,
    "expectedAmount" DECIMAL(20,4),
    "reportedAmount" DECIMAL(20,4),
    CONSTRAINT "SettlementDiscrepancy_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "SettlementDiscrepancy_batchId_fkey" FOREIGN KEY ("batchId") REFERENCES "SettlementBatch"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "SettlementDiscrepancy_batchId_idx" ON "SettlementDiscrepancy"("batchId");

-- The daily close of a store's business date has run (one row per store and date).
CREATE TABLE "SettlementAutoClose" (
    "storeId" TEXT NOT NULL,
    "date" TEXT NOT NULL,
    "batchId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SettlementAutoClose_pkey" PRIMARY KEY ("storeId", "date"),
    CONSTRAINT "SettlementAutoClose_storeId_fkey" FOREIGN KEY ("storeId") REFERENCES "Store"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
