-- Partial authorisation (issue 42, point 3): a card may approve less than asked when the payment
-- allows it. "amount" becomes what the card approved; "requestedAmount" keeps what was asked once
-- they differ (null: the amount asked, every payment before this migration).
ALTER TABLE "Payment" ADD COLUMN "requestedAmount" DECIMAL(20,4);
ALTER TABLE "Payment" ADD COLUMN "allowPartialAuthorisation" BOOLEAN NOT NULL DEFAULT false;
