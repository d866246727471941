-- Initial schema. Written by hand to match prisma/schema.prisma (see test/db/models.test.ts).

CREATE TABLE "Merchant" (
  "id" TEXT PRIMARY KEY,
  "externalId" TEXT NOT NULL UNIQUE,
  "name" TEXT NOT NULL,
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" TIMESTAMPTZ(3) NOT NULL
);

CREATE TABLE "User" (
  "id" SERIAL PRIMARY KEY,
  "merchantId" TEXT NOT NULL REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "username" TEXT NOT NULL UNIQUE,
  "passwordHash" TEXT NOT NULL,
  "displayName" TEXT,
  "email" TEXT,
  "roles" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
  "enabled" BOOLEAN NOT NULL DEFAULT true,
  "locked" BOOLEAN NOT NULL DEFAULT false,
  "failedLoginCount" INTEGER NOT NULL DEFAULT 0,
  "mfaSecret" TEXT,
  "mfaEnabled" BOOLEAN NOT NULL DEFAULT false,
  "mfaEnrollmentRequired" BOOLEAN NOT NULL DEFAULT false,
  "deletedAt" TIMESTAMPTZ(3),
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "User_merchantId_idx" ON "User"("merchantId");
-- usernames are unique regardless of case
CREATE UNIQUE INDEX "User_username_lower_key" ON "User"(lower("username"));

CREATE TABLE "Session" (
  "id" TEXT PRIMARY KEY,
  "userId" INTEGER NOT NULL REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "tokenHash" TEXT NOT NULL UNIQUE,
  "mfaPending" BOOLEAN NOT NULL DEFAULT false,
  "expiresAt" TIMESTAMPTZ(3) NOT NULL,
  "revokedAt" TIMESTAMPTZ(3),
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

CREATE TABLE "ApiKey" (
  "id" TEXT PRIMARY KEY,
  "merchantId" TEXT NOT NULL REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "name" TEXT NOT NULL,
  "mode" TEXT NOT NULL,
  "prefix" TEXT NOT NULL,
  "keyHash" TEXT NOT NULL UNIQUE,
  "scopes" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
  "expiresAt" TIMESTAMPTZ(3),
  "revokedAt" TIMESTAMPTZ(3),
  "replacedById" TEXT,
  "lastUsedAt" TIMESTAMPTZ(3),
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "ApiKey_merchantId_idx" ON "ApiKey"("merchantId");

CREATE TABLE "AuditLog" (
  "id" BIGSERIAL PRIMARY KEY,
  "merchantId" TEXT NOT NULL REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "actorType" TEXT NOT NULL,
  "actorId" TEXT,
  "action" TEXT NOT NULL,
  "targetType" TEXT,
  "targetId" TEXT,
  "details" JSONB NOT NULL DEFAULT '{}',
  "requestId" TEXT,
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "AuditLog_merchantId_createdAt_idx" ON "AuditLog"("merchantId", "createdAt");

CREATE TABLE "Store" (
  "id" TEXT PRIMARY KEY,
  "merchantId" TEXT NOT NULL REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "externalId" TEXT NOT NULL UNIQUE,
  "name" TEXT NOT NULL,
  "addressLine1" TEXT,
  "city" TEXT,
  "postalCode" TEXT,
  "country" TEXT NOT NULL,
  "timezone" TEXT NOT NULL,
  "defaultCurrency" TEXT,
  "mcc" TEXT,
  "metadata" JSONB NOT NULL DEFAULT '{}',
  "status" TEXT NOT NULL DEFAULT 'ACTIVE',
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "Store_merchantId_name_idx" ON "Store"("merchantId", "name");

CREATE TABLE "Terminal" (
  "id" TEXT PRIMARY KEY,
  "merchantId" TEXT NOT NULL REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "storeId" TEXT NOT NULL REFERENCES "Store"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "externalId" TEXT NOT NULL UNIQUE,
  "label" TEXT NOT NULL,
  "terminalType" TEXT,
  "vendor" TEXT,
  "model" TEXT,
  "serialNumber" TEXT,
  "metadata" JSONB NOT NULL DEFAULT '{}',
  "status" TEXT NOT NULL DEFAULT 'ACTIVE',
  "deviceId" TEXT,
  "twoStep" BOOLEAN NOT NULL DEFAULT false,
  "voidSupported" BOOLEAN NOT NULL DEFAULT true,
  "linkedAt" TIMESTAMPTZ(3),
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "Terminal_storeId_idx" ON "Terminal"("storeId");
-- A serial number is unique among the business's live terminals, whatever its case: enforced
-- here so that two concurrent creates cannot both succeed.
CREATE UNIQUE INDEX "Terminal_merchant_serial_key" ON "Terminal"("merchantId", lower("serialNumber")) WHERE "serialNumber" IS NOT NULL;

CREATE TABLE "Payment" (
  "id" TEXT PRIMARY KEY,
  "merchantId" TEXT NOT NULL REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "storeId" TEXT REFERENCES "Store"("id") ON DELETE SET NULL ON UPDATE CASCADE,
  "terminalId" TEXT REFERENCES "Terminal"("id") ON DELETE SET NULL ON UPDATE CASCADE,
  "storeExternalId" TEXT NOT NULL,
  "terminalExternalId" TEXT NOT NULL,
  "deviceId" TEXT,
  "mode" TEXT NOT NULL,
  "pspReference" TEXT NOT NULL UNIQUE,
  "status" TEXT NOT NULL,
  "amount" DECIMAL(20,4) NOT NULL,
  "currency" TEXT NOT NULL,
  "reference" TEXT,
  "sequenceNumber" INTEGER,
  "requestedModes" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
  "paymentMethod" TEXT,
  "cardBrand" TEXT,
  "last4" TEXT,
  "previousStatus" TEXT,
  "reason" TEXT,
  "refusalReason" TEXT,
  "acquirerName" TEXT NOT NULL,
  "acquirerRef" TEXT,
  "origin" TEXT NOT NULL DEFAULT 'PLATFORM',
  "terminalTimeoutMinutes" DECIMAL(10,4) NOT NULL,
  "cashierId" TEXT,
  "customerMobile" TEXT,
  "customerEmail" TEXT,
  "workflowId" TEXT NOT NULL,
  "historySequence" INTEGER NOT NULL DEFAULT 0,
  "expiresAt" TIMESTAMPTZ(3) NOT NULL,
  "capturedAt" TIMESTAMPTZ(3),
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "Payment_merchantId_createdAt_idx" ON "Payment"("merchantId", "createdAt");
CREATE INDEX "Payment_status_expiresAt_idx" ON "Payment"("status", "expiresAt");
CREATE INDEX "Payment_storeId_createdAt_idx" ON "Payment"("storeId", "createdAt");
CREATE INDEX "Payment_terminalId_createdAt_idx" ON "Payment"("terminalId", "createdAt");
-- Idempotency of creation: one open payment per (merchant, reference, sequenceNumber) ...
CREATE UNIQUE INDEX "Payment_open_reference_key" ON "Payment"("merchantId", "reference", COALESCE("sequenceNumber", 0))
  WHERE "reference" IS NOT NULL AND "status" IN ('CREATED', 'AWAITING_TERMINAL', 'AUTHORIZED');
-- ... and one open bill per terminal, across every API process.
CREATE UNIQUE INDEX "Payment_open_terminal_key" ON "Payment"("terminalExternalId")
  WHERE "status" IN ('CREATED', 'AWAITING_TERMINAL', 'AUTHORIZED');

CREATE TABLE "PaymentHistory" (
  "id" BIGSERIAL PRIMARY KEY,
  "paymentId" TEXT NOT NULL REFERENCES "Payment"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "sequence" INTEGER NOT NULL,
  "status" TEXT NOT NULL,
  "previousStatus" TEXT,
  "actionReference" TEXT NOT NULL,
  "source" TEXT NOT NULL,
  "occurredAt" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "PaymentHistory_paymentId_sequence_key" UNIQUE ("paymentId", "sequence")
);

CREATE TABLE "WebhookConfig" (
  "id" TEXT PRIMARY KEY,
  "merchantId" TEXT NOT NULL REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "url" TEXT NOT NULL,
  "description" TEXT,
  "eventTypes" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
  "secret" TEXT NOT NULL,
  "deletedAt" TIMESTAMPTZ(3),
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" TIMESTAMPTZ(3) NOT NULL
);
CREATE INDEX "WebhookConfig_merchantId_idx" ON "WebhookConfig"("merchantId");

CREATE TABLE "WebhookEvent" (
  "id" TEXT PRIMARY KEY,
  "merchantId" TEXT NOT NULL REFERENCES "Merchant"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "paymentId" TEXT,
  "eventType" TEXT NOT NULL,
  "payload" JSONB NOT NULL,
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "WebhookEvent_merchantId_createdAt_idx" ON "WebhookEvent"("merchantId", "createdAt");

CREATE TABLE "WebhookDelivery" (
  "id" TEXT PRIMARY KEY,
  "eventId" TEXT NOT NULL REFERENCES "WebhookEvent"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "configId" TEXT NOT NULL REFERENCES "WebhookConfig"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "status" TEXT NOT NULL DEFAULT 'PENDING',
  "attempts" INTEGER NOT NULL DEFAULT 0,
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" TIMESTAMPTZ(3) NOT NULL,
  CONSTRAINT "WebhookDelivery_eventId_configId_key" UNIQUE ("eventId", "configId")
);
CREATE INDEX "WebhookDelivery_configId_createdAt_idx" ON "WebhookDelivery"("configId", "createdAt");

CREATE TABLE "WebhookAttempt" (
  "id" BIGSERIAL PRIMARY KEY,
  "deliveryId" TEXT NOT NULL REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE,
  "attemptNumber" INTEGER NOT NULL,
  "requestedAt" TIMESTAMPTZ(3) NOT NULL,
  "responseStatus" INTEGER,
  "durationMs" INTEGER NOT NULL,
  "error" TEXT,
  "responseBody" TEXT,
  CONSTRAINT "WebhookAttempt_deliveryId_attemptNumber_key" UNIQUE ("deliveryId", "attemptNumber")
);
