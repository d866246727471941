import { cancelUpdate, captureUpdate, operatorClearUpdate, refundUpdate, settleUpdate, voidUpdate } from './payment/messages';
import { acceptDisputeUpdate, saveDisputeEvidenceUpdate, submitDisputeUpdate } from './dispute/messages';
import { cancelBillUpdate, openTenderUpdate, recordTillTenderUpdate } from './bill/messages';

/**
 * No message to a workflow moves money unless the service sent it (docs/security.md, "Messages to
 * workflows"). Temporal's frontend accepts an update from anyone who reaches it (its Web UI, its
 * CLI); so every message below carries a grant in a header: an HMAC, with a key derived from
 * SECRETS_KEY, over the workflow id, the message's name, its arguments and when it was issued.
 * Only a process holding SECRETS_KEY (the API, the operator CLI, the worker's own callers) can
 * make one, and each is issued only after the API authorised and audited the request. The
 * workflow checks it (workflows/grantCheck.ts) before the message's handler runs.
 */
export const GRANT_HEADER = 'isp-grant';

/** The messages that change money or a payment's or dispute's outcome; every other message is a nudge to re-read, a read, or the payment's creation (docs/security.md lists each). */
export const GRANTED_MESSAGES: ReadonlySet<string> = new Set(
  [
    cancelUpdate,
    voidUpdate,
    captureUpdate,
    refundUpdate,
    settleUpdate,
    operatorClearUpdate,
    saveDisputeEvidenceUpdate,
    submitDisputeUpdate,
    acceptDisputeUpdate,
    openTenderUpdate,
    recordTillTenderUpdate,
    cancelBillUpdate,
  ].map((d) => d.name),
);

export interface MessageGrant {
  issuedAtMs: number;
  /** HMAC-SHA256, hex. */
  proof: string;
}

/** What a grant is checked against. */
export interface GrantedMessage {
  workflowId: string;
  name: string;
  args: unknown[];
  grant: unknown;
}

/** A grant older than this (or this far in the future) is refused: a copy read from a history cannot be sent again later. */
export const GRANT_MAX_AGE_MS = 10 * 60_000;

/** The failure type a message without a valid grant is refused with. */
export const GRANT_REFUSED = 'forbidden';

/** The text a grant's HMAC covers: nothing of it can be changed without the key. */
export const grantText = (workflowId: string, name: string, args: unknown[], issuedAtMs: number): string =>
  JSON.stringify([workflowId, name, issuedAtMs, args]);
