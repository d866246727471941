import type { UserPrincipal } from '../../auth/principal';
import { acceptDispute, saveDisputeEvidence, submitDispute } from '../../disputes/answers';
import { findOwnDispute, listDisputes } from '../../disputes/queries';
import { DisputeIdParams, DisputeListQuery, DisputeRecordSchema, EvidenceBody, toDisputeRecord } from '../../disputes/record';
import { DomainError } from '../../domain/errors';
import { pagedSchema } from '../../domain/paging';
import type { Dispute } from '../../generated/prisma/client';
import type { RouteModule } from '../routeModule';
import { auditRequest } from '../caller';
import type { ApiContext } from '../context';
import { defineRoute } from '../route';

/**
 * Disputes (docs/disputes.md): read by ADMIN, COMPLIANCE and FINANCE (the
 * 'disputes' area), answered by ADMIN and COMPLIANCE (the 'compliance' area); an API key 401,
 * another business's dispute 404. Every answer, refused or not, is in the audit log.
 */
const TAG = 'Disputes';
const BASE = '/api/dashboard/disputes';

/** Runs one answer and audits it: the action on success, DISPUTE_ANSWER_REFUSED with the reason otherwise. */
async function audited(ctx: ApiContext, id: string, action: string, details: Record<string, unknown>, run: () => Promise<Dispute>): Promise<void> {
  let dispute: Dispute;
  try {
    dispute = await run();
  } catch (err) {
    if (err instanceof DomainError && err.kind !== 'not_found') {
      await auditRequest(ctx, { action: 'DISPUTE_ANSWER_REFUSED', target: { type: 'DISPUTE', id }, details: { ...details, answer: action, why: err.message } });
    }
    throw err;
  }
  await auditRequest(ctx, {
    action,
    target: { type: 'DISPUTE', id },
    details: { ...details, paymentId: dispute.paymentId, status: dispute.status, username: (ctx.state.principal as UserPrincipal).username },
  });
  ctx.body = toDisputeRecord(dispute);
}

export const disputeRoutes: RouteModule = (router, registry) => {
  const merchantOf = (ctx: ApiContext) => (ctx.state.principal as UserPrincipal).merchantId;
  const depsOf = (ctx: ApiContext) => ({ ...ctx.deps, logger: ctx.state.log ?? ctx.deps.logger });

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: BASE,
      operationId: 'listDisputes',
      summary: "The business's disputes, newest first (ADMIN, COMPLIANCE, FINANCE)",
      tag: TAG,
      auth: 'session',
      area: 'disputes',
      query: DisputeListQuery,
      responses: { 200: { description: 'A page of disputes', schema: pagedSchema(DisputeRecordSchema, 'DisputePage') } },
      errors: [403],
    },
    async (ctx, { query }) => {
      ctx.body = await listDisputes(ctx.deps.db, merchantOf(ctx), query);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: `${BASE}/{id}`,
      operationId: 'getDispute',
      summary: 'One dispute, with the evidence assembled from our records (ADMIN, COMPLIANCE, FINANCE)',
      tag: TAG,
      auth: 'session',
      area: 'disputes',
      params: DisputeIdParams,
      responses: { 200: { description: 'The dispute', schema: DisputeRecordSchema } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      ctx.body = toDisputeRecord(await findOwnDispute(ctx.deps.db, merchantOf(ctx), params.id));
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'put',
      path: `${BASE}/{id}/evidence`,
      operationId: 'updateDisputeEvidence',
      summary: "Save the merchant's statement while the dispute is NEEDS_RESPONSE (ADMIN, COMPLIANCE)",
      tag: TAG,
      auth: 'session',
      area: 'compliance',
      params: DisputeIdParams,
      body: EvidenceBody,
      responses: { 200: { description: 'The dispute with the statement', schema: DisputeRecordSchema } },
      errors: [403, 404, 409, 503],
    },
    async (ctx, { params, body }) => {
      await audited(ctx, params.id, 'DISPUTE_EVIDENCE_SAVED', { textLength: body.text.length }, () =>
        saveDisputeEvidence(depsOf(ctx), merchantOf(ctx), params.id, body.text),
      );
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: `${BASE}/{id}/submit`,
      operationId: 'submitDispute',
      summary: 'Send the evidence to the acquirer: UNDER_REVIEW (ADMIN, COMPLIANCE). 409 without a statement or when not NEEDS_RESPONSE',
      tag: TAG,
      auth: 'session',
      area: 'compliance',
      params: DisputeIdParams,
      responses: { 200: { description: 'The dispute, UNDER_REVIEW with submittedAt', schema: DisputeRecordSchema } },
      errors: [403, 404, 409, 503],
    },
    async (ctx, { params }) => {
      await audited(ctx, params.id, 'DISPUTE_SUBMITTED', {}, () => submitDispute(depsOf(ctx), merchantOf(ctx), params.id));
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: `${BASE}/{id}/accept`,
      operationId: 'acceptDispute',
      summary: 'Accept the dispute at the acquirer: ACCEPTED, final (ADMIN, COMPLIANCE). 409 when not NEEDS_RESPONSE',
      tag: TAG,
      auth: 'session',
      area: 'compliance',
      params: DisputeIdParams,
      responses: { 200: { description: 'The dispute, ACCEPTED', schema: DisputeRecordSchema } },
      errors: [403, 404, 409, 503],
    },
    async (ctx, { params }) => {
      await audited(ctx, params.id, 'DISPUTE_ACCEPTED', {}, () => acceptDispute(depsOf(ctx), merchantOf(ctx), params.id));
    },
  );
};
