-- Acquirer notifications are coalesced per payment (docs/security.md, point 3): one row per piece
-- of news a payment's workflow was signalled about, claimed atomically by whichever API process
-- gets there first, so any number of notifications costs a bounded number of workflow events.
CREATE TABLE "PaymentNudge" (
    "paymentId" TEXT NOT NULL,
    "news" TEXT NOT NULL,
    "nudgedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "PaymentNudge_pkey" PRIMARY KEY ("paymentId", "news"),
    CONSTRAINT "PaymentNudge_paymentId_fkey" FOREIGN KEY ("paymentId") REFERENCES "Payment"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
