import type { ApiKeyPrincipal } from '../../auth/principal';
import { addTillTender, cancelBill, createBill, findOwnBill, listBills } from '../../bills/bills';
import { toBillRecord } from '../../bills/record';
import { BillListQuery, BillParams, BillRecordSchema, CreateBillBody, TillTenderBody } from '../../bills/schemas';
import { pagedSchema } from '../../domain/paging';
import type { RouteModule } from '../routeModule';
import { auditSourceOf } from '../caller';
import type { ApiContext } from '../context';
import { defineRoute } from '../route';
import { IDEMPOTENT_REPLAY_HEADER } from './payments';

/** Bills over the API key ('payments' scope). Rules: docs/bills.md. */
const BASE = '/api/in-store/bills';
const TAG = 'Bills';

const principalOf = (ctx: ApiContext) => ctx.state.principal as ApiKeyPrincipal;
const depsOf = (ctx: ApiContext) => ({ ...ctx.deps, logger: ctx.state.log });

export const billRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: BASE,
      operationId: 'createBill',
      summary:
        'Open a bill the customer pays by one or more tenders: card or QR payments naming its billId, and cash or other tenders the till took. 201 with the bill (OPEN, expiresAt set); the same reference in the same store while the bill is not final: 200 with that bill (header Idempotent-Replayed: true), 409 with another amount or currency',
      tag: TAG,
      auth: 'apiKey',
      area: 'payments',
      body: CreateBillBody,
      responses: {
        201: { description: 'The bill (OPEN)', schema: BillRecordSchema },
        200: { description: 'The open bill with this reference', schema: BillRecordSchema },
      },
      errors: [403, 404, 409, 503],
    },
    async (ctx, { body }) => {
      const { bill, replayed } = await createBill(depsOf(ctx), principalOf(ctx), body);
      ctx.status = replayed ? 200 : 201;
      if (replayed) ctx.set(IDEMPOTENT_REPLAY_HEADER, 'true');
      ctx.body = bill;
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: BASE,
      operationId: 'listBills',
      summary: "The key's bills, newest first, optionally of one store or status",
      tag: TAG,
      auth: 'apiKey',
      area: 'payments',
      query: BillListQuery,
      responses: { 200: { description: 'One page of bills', schema: pagedSchema(BillRecordSchema, 'BillPage') } },
      errors: [403],
    },
    async (ctx, { query }) => {
      ctx.body = await listBills(ctx.deps.db, principalOf(ctx), query, toBillRecord);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: `${BASE}/{id}`,
      operationId: 'getBill',
      summary: 'One bill: what is paid, what remains, its tenders in sequence order',
      tag: TAG,
      auth: 'apiKey',
      area: 'payments',
      params: BillParams,
      responses: { 200: { description: 'The bill', schema: BillRecordSchema } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      ctx.body = toBillRecord(await findOwnBill(ctx.deps.db, principalOf(ctx), params.id));
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: `${BASE}/{id}/tenders`,
      operationId: 'createBillTender',
      summary:
        'Record cash or another tender the till took itself: counted toward the bill at once (201 with the bill). At most what remains less what open tenders hold (else 400 naming amount); a bill not OPEN: 409',
      tag: TAG,
      auth: 'apiKey',
      area: 'payments',
      params: BillParams,
      body: TillTenderBody,
      responses: { 201: { description: 'The bill with the tender', schema: BillRecordSchema } },
      errors: [403, 404, 409, 503],
    },
    async (ctx, { params, body }) => {
      ctx.status = 201;
      ctx.body = await addTillTender(depsOf(ctx), principalOf(ctx), auditSourceOf(ctx), params.id, body);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: `${BASE}/{id}/cancel`,
      operationId: 'cancelBill',
      summary:
        'Give the bill back: 202 with the bill CANCELLING; every open tender is cancelled, every captured one voided (inside the void window) or refunded in full, every authorised one released; then CANCELLED and one BILL_CANCELLED event (cash and other tenders listed in toReturnAtTill). A bill not OPEN: 409',
      tag: TAG,
      auth: 'apiKey',
      area: 'payments',
      params: BillParams,
      responses: { 202: { description: 'The bill, being given back', schema: BillRecordSchema } },
      errors: [403, 404, 409, 503],
    },
    async (ctx, { params }) => {
      ctx.status = 202;
      ctx.body = await cancelBill(depsOf(ctx), principalOf(ctx), auditSourceOf(ctx), params.id);
    },
  );
};
