import { batchLineCount, batchLines, closeStoreBatch, findOwnBatch, linesCsv, listBatches, toBatchRecord, toLineRecord } from '../../settlement/records';
import { z } from '../../domain/zod';
import { pageOf, pagedSchema } from '../../domain/paging';
import { businessDate, dateRange, PagingQuery } from '../../domain/listQuery';
import type { RouteModule } from '../routeModule';
import { callerOf } from '../caller';
import { feeAudit } from '../../settlement/feeAudit';
import { storesWaitingForSettlement } from '../../settlement/waiting';
import { StoreByName } from '../../stores/schemas';
import { defineRoute } from '../route';

/** Settlement and reconciliation (docs/settlement.md): dashboard users with ADMIN or FINANCE ('finance' area). */
const TAG = 'Settlements';
const BASE = '/api/dashboard/settlements';

const amount = z.number();
const Totals = z.object({
  currency: z.string(),
  paymentCount: z.number().int(),
  grossAmount: amount,
  refundCount: z.number().int(),
  refundAmount: amount,
  feeAmount: amount,
  chargebackAmount: amount.openapi({
    description: "Disputes' money: the CHARGEBACK lines' amounts minus the CHARGEBACK_REVERSAL lines'; 0 for batches closed before it was recorded",
  }),
  expectedFeeAmount: amount.openapi({
    description:
      "The fees the accounts' cost contracts give the lines, a line without a contract counting its reported fee: feeAmount - expectedFeeAmount is what was charged over contract",
  }),
  tipAmount: amount.openapi({ description: 'The tips of the payment lines (docs/tips.md), contained in grossAmount; 0 for batches closed before tips' }),
  netAmount: amount.openapi({ description: 'grossAmount - refundAmount - feeAmount - chargebackAmount' }),
});
const Discrepancy = z.object({
  type: z
    .enum(['MISSING_FROM_REPORT', 'NOT_IN_PLATFORM', 'AMOUNT_MISMATCH', 'FEE_MISMATCH'])
    .openapi({ description: "FEE_MISMATCH: the reported fee (reportedAmount) is not the cost contract's (expectedAmount)" }),
  paymentId: z.string().nullable(),
  acquirerRef: z.string().nullable(),
  currency: z.string(),
  expectedAmount: amount.nullable(),
  reportedAmount: amount.nullable(),
});
const Batch = z
  .object({
    id: z.string(),
    storeExternalId: z.string(),
    date: z.string().openapi({ description: 'Business date YYYY-MM-DD in the store time zone, before SETTLEMENT_CUTOFF_HOUR the day before' }),
    timezone: z.string(),
    mode: z.enum(['live', 'test']).openapi({ description: "Its store's mode: only that mode's payments and refunds are in it" }),
    status: z.enum(['SETTLED', 'DISCREPANCY']),
    closedAt: z.string(),
    closedBy: z.string().openapi({ description: 'Username, or SYSTEM for the daily close' }),
    totals: z.array(Totals),
    discrepancies: z.array(Discrepancy),
  })
  .openapi('SettlementBatch');
const Line = z
  .object({
    type: z.enum(['PAYMENT', 'REFUND', 'CHARGEBACK', 'CHARGEBACK_REVERSAL']).openapi({
      description: "CHARGEBACK: the acquirer debited a dispute's amount when it opened; CHARGEBACK_REVERSAL: it credited it back when the dispute was WON",
    }),
    paymentId: z.string().nullable(),
    pspReference: z.string().nullable(),
    reference: z.string().nullable(),
    amount,
    feeAmount: amount,
    expectedFeeAmount: amount.nullable().openapi({ description: "A payment's fee under its account's cost contract; null without one" }),
    tipAmount: amount.openapi({ description: "A payment's tip, inside its amount (docs/tips.md); 0 on other lines" }),
    netAmount: amount.openapi({
      description:
        'amount - feeAmount for a payment; minus the amount for a refund; minus the amount for a CHARGEBACK, plus it for a CHARGEBACK_REVERSAL (less any fee)',
    }),
    currency: z.string(),
    occurredAt: z.string(),
    acquirerAccountId: z.string().nullable().openapi({ description: 'The acquirer account whose report carried it; null: the installation default' }),
    disputeId: z.string().nullable().openapi({
      description:
        "A chargeback line's dispute (GET /api/dashboard/disputes/{id}): derived from the acquirer's id, so it names the dispute even when the report came before its notification; null on other lines",
    }),
    acquirerDisputeId: z.string().nullable().openapi({ description: "The acquirer's id of a chargeback line's dispute; null on other lines" }),
  })
  .openapi('SettlementLine');

const CloseBody = z
  .strictObject({ storeExternalId: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters') })
  .openapi('SettlementCloseRequest');
const IdParams = z.object({ id: z.uuid('must be a settlement id') });
const ListQuery = PagingQuery.extend({
  storeExternalId: z.string().min(1).max(200).optional(),
  mode: z.enum(['live', 'test']).optional().openapi({ description: 'Only batches of live or of test stores; absent: both' }),
  ...dateRange(' business date', businessDate),
}).strict();

const FeeAudit = z
  .object({
    totals: z.array(
      z.object({
        currency: z.string(),
        batchCount: z.number().int().openapi({ description: 'Batches of the period with lines in this currency' }),
        feeAmount: amount.openapi({ description: 'The fees the acquirers charged' }),
        expectedFeeAmount: amount.openapi({ description: "The fees the accounts' cost contracts give (a line without a contract counts its charged fee)" }),
        overContractAmount: amount.openapi({ description: 'feeAmount - expectedFeeAmount: what was charged over contract, to claim back (negative: under)' }),
      }),
    ),
  })
  .openapi('SettlementFeeAudit');

const WaitingStores = z
  .object({
    stores: z.array(
      StoreByName.extend({
        payments: z.number().int().openapi({ description: 'Captured payments in no batch yet' }),
        refunds: z.number().int().openapi({ description: 'Succeeded refunds in no batch yet' }),
        closing: z
          .object({
            batchId: z.string(),
            status: z
              .enum(['CLOSING', 'SETTLING'])
              .openapi({ description: "CLOSING: claiming and asking for the acquirer's report; SETTLING: settling its payments" }),
            total: z.number().int().openapi({ description: 'Payments in the batch' }),
            settled: z.number().int().openapi({ description: 'Of those, settled so far' }),
          })
          .nullable()
          .openapi({ description: "The store's close in progress, or null" }),
      }),
    ),
  })
  .openapi('SettlementWaitingStores');

export const settlementRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/dashboard/settlement-stores',
      operationId: 'listStoresWaitingForSettlement',
      summary: "Stores with payments or refunds waiting for settlement, by name, and each store's close in progress (settled of total)",
      tag: TAG,
      auth: 'session',
      area: 'finance',
      responses: { 200: { description: 'The stores a close would settle something in', schema: WaitingStores } },
      errors: [403],
    },
    async (ctx) => {
      ctx.body = { stores: await storesWaitingForSettlement(ctx.deps.db, callerOf(ctx).principal.merchantId) };
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: BASE,
      operationId: 'closeSettlementBatch',
      summary: "Close the store's open batch: fetch the acquirer's report and reconcile",
      tag: TAG,
      auth: 'session',
      area: 'finance',
      body: CloseBody,
      responses: { 201: { description: 'The closed batch', schema: Batch } },
      errors: [403, 404, 409],
    },
    async (ctx, { body }) => {
      const { principal } = callerOf(ctx);
      const batch = await closeStoreBatch(ctx.deps, principal.merchantId, body.storeExternalId, principal.username);
      ctx.status = 201;
      ctx.set('Location', `${BASE}/${batch.id}`);
      ctx.body = toBatchRecord(batch);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: BASE,
      operationId: 'listSettlements',
      summary: 'Settlement batches, newest first',
      tag: TAG,
      auth: 'session',
      area: 'finance',
      query: ListQuery,
      responses: { 200: { description: 'A page of batches', schema: pagedSchema(Batch, 'SettlementBatchPage') } },
      errors: [403],
    },
    async (ctx, { query }) => {
      const { total, rows } = await listBatches(ctx.deps.db, callerOf(ctx).principal.merchantId, query);
      ctx.body = pageOf(rows.map(toBatchRecord), total, query);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: `${BASE}/fee-audit`,
      operationId: 'getSettlementFeeAudit',
      summary: "Fees charged against the cost contracts' over the batches a filter selects (a period of business dates), per currency",
      tag: TAG,
      auth: 'session',
      area: 'finance',
      query: ListQuery.omit({ page: true, size: true }),
      responses: { 200: { description: 'Charged, expected and the difference, per currency', schema: FeeAudit } },
      errors: [403],
    },
    async (ctx, { query }) => {
      const totals = await feeAudit(ctx.deps.db, callerOf(ctx).principal.merchantId, query);
      ctx.body = {
        totals: totals.map((t) => ({
          ...t,
          feeAmount: Number(t.feeAmount),
          expectedFeeAmount: Number(t.expectedFeeAmount),
          overContractAmount: Number(t.overContractAmount),
        })),
      };
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: `${BASE}/{id}`,
      operationId: 'getSettlement',
      summary: 'One settlement batch',
      tag: TAG,
      auth: 'session',
      area: 'finance',
      params: IdParams,
      responses: { 200: { description: 'The batch', schema: Batch } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      ctx.body = toBatchRecord(await findOwnBatch(ctx.deps.db, callerOf(ctx).principal.merchantId, params.id));
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: `${BASE}/{id}/lines`,
      operationId: 'listSettlementLines',
      summary: "A batch's settled payments and refunds, paged",
      tag: TAG,
      auth: 'session',
      area: 'finance',
      params: IdParams,
      query: PagingQuery.strict(),
      responses: { 200: { description: 'A page of lines', schema: pagedSchema(Line, 'SettlementLinePage') } },
      errors: [403, 404],
    },
    async (ctx, { params, query }) => {
      const batch = await findOwnBatch(ctx.deps.db, callerOf(ctx).principal.merchantId, params.id);
      const [total, lines] = await Promise.all([batchLineCount(ctx.deps.db, batch.id), batchLines(ctx.deps.db, batch.id, query)]);
      ctx.body = pageOf(lines.map(toLineRecord), total, query);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: `${BASE}/{id}/lines.csv`,
      operationId: 'exportSettlementLines',
      summary: "A batch's lines as CSV with a header row",
      tag: TAG,
      auth: 'session',
      area: 'finance',
      params: IdParams,
      responses: {
        200: {
          description:
            'text/csv: type,paymentId,pspReference,reference,amount,feeAmount,netAmount,currency,occurredAt,acquirerAccountId,expectedFeeAmount,disputeId,acquirerDisputeId,tipAmount',
          text: 'text/csv',
        },
      },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      const batch = await findOwnBatch(ctx.deps.db, callerOf(ctx).principal.merchantId, params.id);
      ctx.type = 'text/csv; charset=utf-8';
      ctx.set('Content-Disposition', `attachment; filename="settlement-${batch.storeExternalId.replace(/[^A-Za-z0-9._-]/g, '_')}-${batch.date}.csv"`);
      ctx.body = linesCsv(await batchLines(ctx.deps.db, batch.id));
    },
  );
};
