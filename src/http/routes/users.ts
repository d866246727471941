import { callerOf } from '../caller';
import { createUser, disableUser, getUser, listUsers, resetMfa, resetPassword, unlockUser, updateUser } from '../../users/management';
import { confirmMfaEnrollment, startMfaEnrollment } from '../../users/mfaEnrollment';
import { UserRecord } from '../../users/userRecord';
import { usernameSchema } from '../../users/username';
import type { RouteModule } from '../routeModule';
import { z } from '../../domain/zod';
import { pageOf, pagedSchema } from '../../domain/paging';
import { PagingQuery } from '../../domain/listQuery';
import { defineRoute } from '../route';

/**
 * User management (docs/users-and-keys.md, "Users") with a dashboard session token. The area of each route is checked by
 * the one auth middleware; PUT /api/users/{id} is open to everyone ('ownProfile') because anyone
 * may edit their own profile, and the rule "administrators for other users" is applied inside.
 * /api/users/me routes are declared before /api/users/{id} so 'me' is never taken for an id.
 */
const TAG = 'Users';

const UserIdParams = z.object({
  id: z.coerce
    .number({ message: 'must be an integer' })
    .int('must be an integer')
    .positive('must be a positive integer')
    .max(2_147_483_647, 'must be a user id'),
});

const displayName = z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters');
const email = z.email('must be an email address').max(320, 'must be at most 320 characters');
const roles = z
  .array(z.string().max(50, 'must be at most 50 characters'))
  .max(20, 'must name at most 20 roles')
  .openapi({ description: 'Role names with or without ROLE_: ADMIN, FINANCE, OPERATIONS, COMPLIANCE, USER', example: ['ROLE_FINANCE'] });
const password = z
  .string()
  .max(1024, 'must be at most 1024 characters')
  .openapi({ description: 'At least 12 characters, containing both letters and digits. Write-only' });

const CreateUserBody = z
  .strictObject({
    username: usernameSchema,
    password,
    displayName: displayName.nullable().optional(),
    email: email.nullable().optional(),
    roles: roles.optional().openapi({ description: 'Default: USER' }),
    merchantExternalId: z
      .string()
      .optional()
      .openapi({ description: "Users always belong to the caller's merchant: omit, or name the caller's own (anything else is 400)" }),
  })
  .openapi('CreateUserRequest');

const UpdateUserBody = z
  .strictObject({
    displayName: displayName.nullable().optional(),
    email: email.nullable().optional(),
    roles: roles.optional().openapi({ description: 'Administrators only; never on your own account' }),
    enabled: z.boolean().optional().openapi({ description: 'Administrators only; never on your own account. true also restores a deleted account' }),
  })
  .openapi('UpdateUserRequest');

const PasswordBody = z.strictObject({ password }).openapi('PasswordResetRequest');

const MfaEnrollment = z
  .object({
    secret: z.string().openapi({ description: 'Base32 TOTP secret, for manual entry in an authenticator app' }),
    otpauthUrl: z.string().openapi({ description: 'otpauth:// URI to show as a QR code' }),
  })
  .openapi('MfaEnrollment');

const MfaVerifyBody = z.strictObject({ code: z.string().regex(/^\d{6}$/, 'must be the 6-digit code from your authenticator app') }).openapi('MfaVerifyRequest');

const UserPage = pagedSchema(UserRecord, 'UserPage');

export const userRoutes: RouteModule = (router, registry) => {
  // --- the caller's own account (declared first: /me is not an id) ---
  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/users/me',
      operationId: 'getOwnUser',
      summary: "The caller's own profile",
      tag: TAG,
      auth: 'session',
      area: 'ownAccount',
      responses: { 200: { description: 'The user', schema: UserRecord } },
    },
    async (ctx) => {
      const caller = callerOf(ctx);
      ctx.body = await getUser(ctx.deps.db, caller, caller.principal.userId);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: '/api/users/me/mfa/enroll',
      operationId: 'startMfaEnrollment',
      summary: 'Start authenticator (TOTP) enrolment: a new secret, active once a code from it is verified',
      tag: TAG,
      auth: 'session',
      area: 'ownAccount',
      responses: { 200: { description: 'The secret to enrol', schema: MfaEnrollment } },
      errors: [409],
    },
    async (ctx) => {
      ctx.body = await startMfaEnrollment(ctx.deps.db, callerOf(ctx));
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: '/api/users/me/mfa/verify',
      operationId: 'verifyMfaEnrollment',
      summary: 'Finish enrolment with a code from the authenticator: MFA is on, and sign-in needs a code from now on',
      tag: TAG,
      auth: 'session',
      area: 'ownAccount',
      body: MfaVerifyBody,
      responses: { 200: { description: 'The user, mfaEnabled true', schema: UserRecord } },
      errors: [409],
    },
    async (ctx, { body }) => {
      ctx.body = await confirmMfaEnrollment(ctx.deps.db, callerOf(ctx), body.code);
    },
  );

  // --- the merchant's users ---
  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: '/api/users',
      operationId: 'createUser',
      summary: "Create a user in the caller's merchant (ADMIN)",
      tag: TAG,
      auth: 'session',
      area: 'users',
      body: CreateUserBody,
      responses: { 201: { description: 'The user', schema: UserRecord } },
      errors: [403, 409],
    },
    async (ctx, { body }) => {
      ctx.status = 201;
      ctx.body = await createUser(ctx.deps.db, callerOf(ctx), body);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/users',
      operationId: 'listUsers',
      summary: "Users of the caller's merchant, by id, paged",
      tag: TAG,
      auth: 'session',
      area: 'sharedViews',
      query: PagingQuery.strict(),
      responses: { 200: { description: 'A page of users', schema: UserPage } },
      errors: [403],
    },
    async (ctx, { query }) => {
      const { content, total } = await listUsers(ctx.deps.db, callerOf(ctx), query);
      ctx.body = pageOf(content, total, query);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'get',
      path: '/api/users/{id}',
      operationId: 'getUser',
      summary: "One user of the caller's merchant",
      tag: TAG,
      auth: 'session',
      area: 'sharedViews',
      params: UserIdParams,
      responses: { 200: { description: 'The user', schema: UserRecord } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      ctx.body = await getUser(ctx.deps.db, callerOf(ctx), params.id);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'put',
      path: '/api/users/{id}',
      operationId: 'updateUser',
      summary: 'Update a user: anyone their own displayName and email; ADMIN anyone, also roles and enabled',
      tag: TAG,
      auth: 'session',
      area: 'ownProfile',
      params: UserIdParams,
      body: UpdateUserBody,
      responses: { 200: { description: 'The user', schema: UserRecord } },
      errors: [403, 404],
    },
    async (ctx, { params, body }) => {
      ctx.body = await updateUser(ctx.deps.db, callerOf(ctx), params.id, body);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'put',
      path: '/api/users/{id}/password',
      operationId: 'resetUserPassword',
      summary: "Reset a user's password (ADMIN); every session of the user ends",
      tag: TAG,
      auth: 'session',
      area: 'users',
      params: UserIdParams,
      body: PasswordBody,
      responses: { 204: { description: 'Password set' } },
      errors: [403, 404],
    },
    async (ctx, { params, body }) => {
      await resetPassword(ctx.deps.db, callerOf(ctx), params.id, body.password);
      ctx.status = 204;
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: '/api/users/{id}/unlock',
      operationId: 'unlockUser',
      summary: 'Unlock an account locked by failed sign-ins (ADMIN)',
      tag: TAG,
      auth: 'session',
      area: 'users',
      params: UserIdParams,
      responses: { 200: { description: 'The user, locked false', schema: UserRecord } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      ctx.body = await unlockUser(ctx.deps.db, callerOf(ctx), params.id);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: '/api/users/{id}/mfa/reset',
      operationId: 'resetUserMfa',
      summary: 'Force authenticator re-enrolment (ADMIN): MFA off, sessions end, the next sign-in can only enrol',
      tag: TAG,
      auth: 'session',
      area: 'users',
      params: UserIdParams,
      responses: { 200: { description: 'The user, mfaEnrollmentRequired true', schema: UserRecord } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      ctx.body = await resetMfa(ctx.deps.db, callerOf(ctx), params.id);
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'delete',
      path: '/api/users/{id}',
      operationId: 'disableUser',
      summary: 'Disable the account (soft delete, ADMIN): it cannot sign in and its sessions end',
      tag: TAG,
      auth: 'session',
      area: 'users',
      params: UserIdParams,
      responses: { 204: { description: 'Disabled' } },
      errors: [403, 404],
    },
    async (ctx, { params }) => {
      await disableUser(ctx.deps.db, callerOf(ctx), params.id);
      ctx.status = 204;
    },
  );
};
