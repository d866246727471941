-- Bills (docs/bills.md): a till's bill paid by one or more tenders. The bill's workflow writes its
-- status and tenders; a payment that is a tender names its bill. One bill per reference, store and
-- mode while it is not final (OPEN or CANCELLING): the same create again finds it.
CREATE TABLE "Bill" (
  "id" TEXT NOT NULL PRIMARY KEY,
  "merchantId" TEXT NOT NULL REFERENCES "Merchant"("id") ON DELETE CASCADE,
  "storeId" TEXT,
  "storeExternalId" TEXT NOT NULL,
  "mode" TEXT NOT NULL,
  "reference" TEXT NOT NULL,
  "amount" DECIMAL(20, 4) NOT NULL,
  "currency" TEXT NOT NULL,
  "status" TEXT NOT NULL,
  "paidAmount" DECIMAL(20, 4) NOT NULL DEFAULT 0,
  "timeoutMinutes" INTEGER NOT NULL,
  "expiresAt" TIMESTAMPTZ(3) NOT NULL,
  "closedAt" TIMESTAMPTZ(3),
  "workflowId" TEXT NOT NULL,
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "Bill_merchantId_createdAt_idx" ON "Bill"("merchantId", "createdAt");
CREATE INDEX "Bill_merchantId_storeExternalId_mode_reference_idx" ON "Bill"("merchantId", "storeExternalId", "mode", "reference");
CREATE UNIQUE INDEX "Bill_open_reference_key" ON "Bill"("merchantId", "storeExternalId", "mode", "reference") WHERE "status" IN ('OPEN', 'CANCELLING');

CREATE TABLE "BillTender" (
  "billId" TEXT NOT NULL REFERENCES "Bill"("id") ON DELETE CASCADE,
  "sequenceNumber" INTEGER NOT NULL,
  "paymentId" TEXT,
  "method" TEXT,
  "status" TEXT NOT NULL,
  "amount" DECIMAL(20, 4) NOT NULL,
  "requestedAmount" DECIMAL(20, 4) NOT NULL,
  "refundedAmount" DECIMAL(20, 4) NOT NULL DEFAULT 0,
  "tipAmount" DECIMAL(20, 4) NOT NULL DEFAULT 0,
  "reference" TEXT,
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" TIMESTAMPTZ(3) NOT NULL,
  PRIMARY KEY ("billId", "sequenceNumber")
);
CREATE UNIQUE INDEX "BillTender_paymentId_key" ON "BillTender"("paymentId");

ALTER TABLE "Payment" ADD COLUMN "billId" TEXT;
CREATE INDEX "Payment_billId_idx" ON "Payment"("billId");
