import {
  ApplicationFailure,
  type Next,
  patched,
  proxyActivities,
  type UpdateInput,
  type WorkflowInboundCallsInterceptor,
  workflowInfo,
} from '@temporalio/workflow';
import { defaultPayloadConverter } from '@temporalio/common';
import type { Activities } from '../activities';
import { GRANT_HEADER, GRANT_REFUSED, GRANTED_MESSAGES } from '../core/messageGrants';

/**
 * The workflow side of message grants (docs/security.md, "Messages to workflows"): a granted
 * message (core/messageGrants.ts) runs its handler only once an activity has checked its grant; a
 * message without one (sent to Temporal directly: its Web UI, its CLI) is refused and changes
 * nothing. Registered for every workflow (src/temporal/workflowsPath.ts). An activity, not a local
 * activity: its result comes back in history order, whatever else the run has in flight.
 */
const { verifyMessageGrant } = proxyActivities<Activities>({
  startToCloseTimeout: '10s',
  retry: { initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '5s' },
});

/** Runs before it took granted messages without a check (patch id shared by every workflow). */
export const MESSAGE_GRANTS_PATCH = 'message-grants';

class GrantCheck implements WorkflowInboundCallsInterceptor {
  async handleUpdate(input: UpdateInput, next: Next<WorkflowInboundCallsInterceptor, 'handleUpdate'>): Promise<unknown> {
    if (GRANTED_MESSAGES.has(input.name) && patched(MESSAGE_GRANTS_PATCH)) {
      const header = input.headers[GRANT_HEADER];
      const grant: unknown = header ? defaultPayloadConverter.fromPayload(header) : null;
      const granted = grant !== null && (await verifyMessageGrant({ workflowId: workflowInfo().workflowId, name: input.name, args: input.args, grant }));
      if (!granted)
        throw ApplicationFailure.create({
          type: GRANT_REFUSED,
          nonRetryable: true,
          message: `${input.name} refused: it did not come through the service's API (docs/security.md, "Messages to workflows")`,
        });
    }
    return next(input);
  }
}

export const interceptors = () => ({ inbound: [new GrantCheck()] });
