-- Adyen's dispute notices per acquirer account (docs/disputes.md, "Adyen"; docs/security.md). A
-- notice was kept per the merchantAccountCode written inside the notification, which nothing
-- checked against the account whose path received it: one business, signing with its own
-- account's HMAC key, could name another's MID and dispute and rewrite that business's notice. A
-- notice is now kept per our acquirer account (the path's) and dispute pspReference, and an item
-- naming another MID is refused before anything is read (src/http/acquirerSignatures.ts).
ALTER TABLE "AdyenDisputeNotice" ADD COLUMN "acquirerAccountId" TEXT;
-- The rows kept so far: the account of the payment the notice was recorded for (its acquirerRef),
-- where that account is an adyen account whose MID is the one the notice names. A row without such
-- an account (its payment gone, or a notice recorded under a MID that is not its payment's
-- account's: the forged case above) cannot be trusted or placed, and is removed: the adapter then
-- answers the dispute as unknown (404) until Adyen's next notification of it records it afresh.
UPDATE "AdyenDisputeNotice" n SET "acquirerAccountId" = a."id"
FROM "Payment" p JOIN "AcquirerAccount" a ON a."id" = p."acquirerAccountId"
WHERE p."acquirerRef" = n."acquirerRef" AND p."acquirerName" = 'adyen' AND a."acquirer" = 'adyen' AND a."merchantAccountId" = n."merchantAccount";
DELETE FROM "AdyenDisputeNotice" WHERE "acquirerAccountId" IS NULL;
ALTER TABLE "AdyenDisputeNotice" ALTER COLUMN "acquirerAccountId" SET NOT NULL;
ALTER TABLE "AdyenDisputeNotice" DROP CONSTRAINT "AdyenDisputeNotice_pkey";
ALTER TABLE "AdyenDisputeNotice" ADD PRIMARY KEY ("acquirerAccountId", "disputePspReference");

-- The dispute items already taken, per account, by the digest of their HMAC-signed fields
-- (pspReference, originalReference, merchantAccountCode, merchantReference, value, currency,
-- eventCode, success): a replay of one, even with its unsigned fields changed, changes nothing.
-- Items taken before this migration have no digest: a replay of one of them is taken once more,
-- which can move its dispute only to the status its (signed) event code names.
CREATE TABLE "AdyenDisputeItem" (
  "acquirerAccountId"   TEXT NOT NULL,
  "digest"              TEXT NOT NULL,
  "disputePspReference" TEXT NOT NULL,
  "eventCode"           TEXT NOT NULL,
  "receivedAt"          TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  PRIMARY KEY ("acquirerAccountId", "digest")
);
