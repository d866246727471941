-- Tips (issue 40, docs/tips.md): a store's tipping settings, and a payment's tip charged on top of
-- its amount. "capturedAmount" is what the card was charged, tip included; "tipOffer" keeps the
-- options the terminal offered when the payment asked for a tip (null: it did not ask).
ALTER TABLE "Store" ADD COLUMN "tippingEnabled" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Store" ADD COLUMN "tipPercentages" INTEGER[] NOT NULL DEFAULT ARRAY[10, 15, 20]::INTEGER[];
ALTER TABLE "Store" ADD COLUMN "tipAllowCustom" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "Payment" ADD COLUMN "tipAmount" DECIMAL(20,4) NOT NULL DEFAULT 0;
ALTER TABLE "Payment" ADD COLUMN "tipOffer" JSONB;
-- A settlement line's tip, inside its amount: batch totals and the lines' CSV carry it.
ALTER TABLE "SettlementLine" ADD COLUMN "tipAmount" DECIMAL(20,4) NOT NULL DEFAULT 0;
