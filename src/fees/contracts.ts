import Decimal from 'decimal.js';
import { auditFor, type AuditSource } from '../audit/audit';
import { randomBase62 } from '../auth/apiKeys';
import type { Db } from '../db/client';
import { notFound } from '../domain/errors';
import type { CostContract, Prisma } from '../generated/prisma/client';
import { ownAccount } from '../acquirerAccounts/accounts';
import { type CostLine, expectedFeeOf } from './expectedFee';
import type { CostContractBody, CostContractRecord } from './schemas';

/**
 * Cost contracts (docs/payouts-and-fees.md, "Cost contracts"): an account's price list per currency, versioned. A save is a new
 * version in force from that moment; the versions before it stay, since the payments they priced
 * keep the fee they were given (Payment.expectedFee, written at capture).
 */
const newContractId = (): string => `cc_${randomBase62(20)}`;

export function toContractRecord(row: CostContract): CostContractRecord {
  return {
    accountId: row.accountId,
    currency: row.currency,
    lines: (row.lines as unknown as CostLine[]).map((l) => ({
      paymentMode: l.paymentMode,
      ...(l.cardBrand ? { cardBrand: l.cardBrand } : {}),
      percent: Number(l.percent),
      fixed: Number(l.fixed),
    })),
    disputeFee: row.disputeFee === null ? null : Number(row.disputeFee),
    version: row.version,
    validFrom: row.validFrom.toISOString(),
  };
}

/** Saves a new version of the account's contract for the body's currency; ADMIN, audited. */
export async function saveContract(db: Db, by: AuditSource & { username: string }, accountId: string, body: CostContractBody): Promise<CostContract> {
  return db.$transaction(async (tx) => {
    // One save per account at a time: versions count up without a gap or a clash.
    await tx.$executeRaw`SELECT 1 FROM "AcquirerAccount" WHERE "id" = ${accountId} AND "merchantId" = ${by.merchantId} FOR UPDATE`;
    await ownAccount(tx, by.merchantId, accountId);
    const last = await tx.costContract.findFirst({ where: { accountId, currency: body.currency }, orderBy: { version: 'desc' }, select: { version: true } });
    const lines: CostLine[] = body.lines.map((l) => ({
      paymentMode: l.paymentMode,
      ...(l.cardBrand ? { cardBrand: l.cardBrand } : {}),
      percent: new Decimal(l.percent.toString()).toFixed(),
      fixed: new Decimal(l.fixed.toString()).toFixed(),
    }));
    const saved = await tx.costContract.create({
      data: {
        id: newContractId(),
        merchantId: by.merchantId,
        accountId,
        currency: body.currency,
        lines: lines as unknown as Prisma.InputJsonValue,
        disputeFee: body.disputeFee === undefined ? null : new Decimal(body.disputeFee.toString()).toFixed(),
        version: (last?.version ?? 0) + 1,
        validFrom: new Date(),
        createdBy: by.username,
      },
    });
    await auditFor(tx, by, {
      action: 'COST_CONTRACT_UPDATED',
      target: { type: 'ACQUIRER_ACCOUNT', id: accountId },
      details: { currency: saved.currency, version: saved.version, lines, disputeFee: body.disputeFee ?? null },
    });
    return saved;
  });
}

/** The version in force at `at` (default now) for the account and currency; null when none was saved by then. */
export function contractInForce(db: Pick<Db, 'costContract'>, accountId: string, currency: string, at = new Date()): Promise<CostContract | null> {
  return db.costContract.findFirst({ where: { accountId, currency, validFrom: { lte: at } }, orderBy: { version: 'desc' } });
}

/** The one in force now, for a business's own account: 404 for another business's account or when none is in force. */
export async function readContract(db: Db, merchantId: string, accountId: string, currency: string): Promise<CostContract> {
  await ownAccount(db, merchantId, accountId);
  const row = await contractInForce(db, accountId, currency);
  if (!row) throw notFound(`cost contract in ${currency}`);
  return row;
}

/** A captured payment's expected fee: the contract in force at its capture; null without an account, a contract or a line that prices it. */
export async function expectedFeeAtCapture(
  db: Pick<Db, 'costContract'>,
  p: { acquirerAccountId: string | null; currency: string; capturedAt: Date; capturedAmount: string; paymentMethod: string | null; cardBrand: string | null },
): Promise<string | null> {
  if (!p.acquirerAccountId) return null;
  const contract = await contractInForce(db, p.acquirerAccountId, p.currency, p.capturedAt);
  if (!contract) return null;
  return expectedFeeOf(contract.lines as unknown as CostLine[], {
    currency: p.currency,
    capturedAmount: p.capturedAmount,
    paymentMode: p.paymentMethod,
    cardBrand: p.cardBrand,
  });
}
