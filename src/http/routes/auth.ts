import { callerOf } from '../caller';
import { signIn, signOut } from '../../users/signIn';
import type { RouteModule } from '../routeModule';
import { z } from '../../domain/zod';
import { defineRoute } from '../route';

/** Dashboard sign-in and sign-out (docs/users-and-keys.md, "Sign-in and sessions"): session tokens for the user-management API. */
const LoginBody = z
  .strictObject({
    username: z.string().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
    password: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters'),
    totp: z
      .string()
      .regex(/^\d{6}$/, 'must be the 6-digit code from your authenticator app')
      .optional()
      .openapi({ description: 'Required once MFA is enabled for the account' }),
  })
  .openapi('LoginRequest');

const LoginResponse = z
  .object({
    token: z.string().openapi({ description: 'Send as Authorization: Bearer <token>. Only its hash is stored' }),
    expiresAt: z.string().openapi({ example: '2026-11-22T22:00:00.000Z' }),
    mfaEnrollmentRequired: z
      .boolean()
      .openapi({ description: 'True after an MFA reset: this session reaches only GET /api/users/me, the enrolment endpoints and logout until enrolled' }),
  })
  .openapi('LoginResponse');

export const authRoutes: RouteModule = (router, registry) => {
  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: '/api/auth/login',
      operationId: 'createSession',
      summary:
        'Sign in: a session token valid for SESSION_TTL_HOURS (12 h). Five wrong passwords in a row lock the account for the address that made them (429 with Retry-After); every other refusal is the same 401',
      tag: 'Authentication',
      auth: 'none',
      body: LoginBody,
      responses: { 200: { description: 'Signed in', schema: LoginResponse } },
      errors: [401, 429],
    },
    async (ctx, { body }) => {
      const result = await signIn(
        { db: ctx.deps.db, sessionTtlHours: ctx.deps.config.SESSION_TTL_HOURS, requestId: ctx.state.requestId, ip: ctx.ip, throttle: ctx.deps.signInThrottle },
        body,
      );
      ctx.state.log.info({ mfaEnrollmentRequired: result.mfaEnrollmentRequired }, 'signed in');
      ctx.body = { token: result.token, expiresAt: result.expiresAt.toISOString(), mfaEnrollmentRequired: result.mfaEnrollmentRequired };
    },
  );

  defineRoute(
    router,
    registry,
    {
      method: 'post',
      path: '/api/auth/logout',
      operationId: 'deleteSession',
      summary: 'Sign out: the session token stops working at once',
      tag: 'Authentication',
      auth: 'session',
      area: 'ownAccount',
      responses: { 204: { description: 'Signed out' } },
    },
    async (ctx) => {
      await signOut(ctx.deps.db, callerOf(ctx));
      ctx.status = 204;
    },
  );
};
