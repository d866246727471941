import type { UserPrincipal } from '../auth/principal';
import type { ApiContext } from '../http/context';
import type { Caller } from './management';

/** The signed-in user of a 'session' route, with the request id for the audit log. */
export function callerOf(ctx: ApiContext): Caller {
  const principal = ctx.state.principal;
  if (principal?.kind !== 'user') throw new Error('callerOf: route is not authenticated by a session');
  return { principal: principal as UserPrincipal, requestId: ctx.state.requestId };
}
