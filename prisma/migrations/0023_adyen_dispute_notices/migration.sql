-- Adyen's disputes as its notifications told them (docs/disputes.md, "Adyen"). Adyen's Disputes API
-- defends and accepts but has no read of a dispute: its state, reason, amount and due date come
-- only in the HMAC-verified chargeback notifications. The latest of each dispute is kept here, per
-- merchant account and dispute pspReference, and is what the Adyen adapter's getDispute answers.
CREATE TABLE "AdyenDisputeNotice" (
  "merchantAccount"       TEXT NOT NULL,
  "disputePspReference"   TEXT NOT NULL,
  "paymentPspReference"   TEXT NOT NULL,
  "acquirerRef"           TEXT NOT NULL,
  "status"                TEXT NOT NULL,
  "reason"                TEXT NOT NULL,
  "amount"                DECIMAL(20, 4) NOT NULL,
  "currency"              TEXT NOT NULL,
  "openedAt"              TIMESTAMPTZ(3) NOT NULL,
  "dueBy"                 TIMESTAMPTZ(3) NOT NULL,
  "eventCode"             TEXT NOT NULL,
  "eventDate"             TIMESTAMPTZ(3) NOT NULL,
  "updatedAt"             TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY ("merchantAccount", "disputePspReference")
);
