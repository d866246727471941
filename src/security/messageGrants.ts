import { createHmac, timingSafeEqual } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import { GRANT_HEADER, GRANT_MAX_AGE_MS, GRANTED_MESSAGES, type GrantedMessage, type MessageGrant, grantText } from '../../core/messageGrants';
import { parseKey } from '../secrets/keyring';

/**
 * The service's side of message grants (docs/security.md, "Messages to workflows"): the keys,
 * making a grant, checking one, and the Temporal client interceptor that puts a grant on every
 * granted message this process sends. The workflow side is workflows/grantCheck.ts.
 */

/** The grant keys: the first signs, all verify (SECRETS_KEY, then SECRETS_KEY_PREVIOUS during a rotation). */
export function grantKeys(config: { SECRETS_KEY?: string; SECRETS_KEY_PREVIOUS?: string }): Buffer[] {
  if (!config.SECRETS_KEY) throw new Error('SECRETS_KEY is not loaded in this process: messages to workflows cannot be granted');
  const texts = [config.SECRETS_KEY, ...(config.SECRETS_KEY_PREVIOUS ?? '').split(',')].map((s) => s.trim()).filter(Boolean);
  // Derived, never the sealing key itself: a grant's HMAC tells nothing of the key that seals secrets.
  return texts.map((t) => createHmac('sha256', parseKey(t, 'SECRETS_KEY').bytes).update('workflow-message-grants').digest());
}

const proofOf = (key: Buffer, text: string): Buffer => createHmac('sha256', key).update(text).digest();

export function grantFor(key: Buffer, workflowId: string, name: string, args: unknown[], nowMs = Date.now()): MessageGrant {
  return { issuedAtMs: nowMs, proof: proofOf(key, grantText(workflowId, name, args, nowMs)).toString('hex') };
}

/** True when the grant was made by one of the keys for exactly this message, and is fresh. */
export function isGranted(keys: Buffer[], message: GrantedMessage, nowMs = Date.now()): boolean {
  const grant = message.grant as Partial<MessageGrant> | null | undefined;
  if (!grant || typeof grant.issuedAtMs !== 'number' || typeof grant.proof !== 'string' || !/^[0-9a-f]{64}$/.test(grant.proof)) return false;
  if (Math.abs(nowMs - grant.issuedAtMs) > GRANT_MAX_AGE_MS) return false;
  // The arguments as the workflow received them, in the JSON the client encoded them in.
  const args = JSON.parse(JSON.stringify(message.args ?? [])) as unknown[];
  const text = grantText(message.workflowId, message.name, args, grant.issuedAtMs);
  const given = Buffer.from(grant.proof, 'hex');
  return keys.some((key) => timingSafeEqual(proofOf(key, text), given));
}

/** Puts a grant on each granted message this client sends (updates, with or without start). */
export function messageGrantInterceptor(keys: Buffer[]): WorkflowClientInterceptor {
  const [key] = keys;
  const header = (workflowId: string, name: string, args: unknown[]) => ({
    [GRANT_HEADER]: defaultPayloadConverter.toPayload(grantFor(key!, workflowId, name, JSON.parse(JSON.stringify(args)) as unknown[])),
  });
  return {
    startUpdate: (input, next) =>
      GRANTED_MESSAGES.has(input.updateName)
        ? next({ ...input, headers: { ...input.headers, ...header(input.workflowExecution.workflowId, input.updateName, input.args) } })
        : next(input),
    startUpdateWithStart: (input, next) =>
      GRANTED_MESSAGES.has(input.updateName)
        ? next({
            ...input,
            updateHeaders: { ...input.updateHeaders, ...header(input.workflowStartOptions.workflowId, input.updateName, input.updateArgs) },
          })
        : next(input),
  };
}
