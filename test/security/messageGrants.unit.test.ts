import { GRANT_MAX_AGE_MS, GRANTED_MESSAGES } from '../../core/messageGrants';
import { grantFor, grantKeys, isGranted } from '../../src/security/messageGrants';

/** Message grants (docs/security.md, "Messages to workflows"): only the key's holder makes one, for exactly one message, for a short while. */
const KEY = 'a'.repeat(64);
const OTHER = 'b'.repeat(64);
const [key] = grantKeys({ SECRETS_KEY: KEY });
const now = Date.parse('2026-11-27T12:00:00Z');
const args = [{ refundId: 'r-1', amount: '10', createdBy: 'finance-1' }];
const message = (grant: unknown, over: Partial<{ workflowId: string; name: string; args: unknown[] }> = {}) => ({
  workflowId: 'payment-p1',
  name: 'refund',
  args,
  grant,
  ...over,
});

it('lists every money-moving update of the payment, bill and dispute workflows, and no nudge', () => {
  expect([...GRANTED_MESSAGES].sort()).toEqual(
    [
      'acceptDispute',
      'cancel',
      'capture',
      'operatorClear',
      'refund',
      'saveDisputeEvidence',
      'settle',
      'submitDispute',
      'void',
      'openTender',
      'recordTillTender',
      'cancelBill',
    ].sort(),
  );
  for (const nudge of ['acquirerNotified', 'sweepNudge', 'disputeChanged', 'disputeNudge', 'syncStatus', 'placeBill', 'tenderChanged'])
    expect(GRANTED_MESSAGES.has(nudge)).toBe(false);
});

it('holds for the message it was made for', () => {
  expect(isGranted([key!], message(grantFor(key!, 'payment-p1', 'refund', args, now)), now + 1000)).toBe(true);
});

it('fails for another workflow, another message, changed arguments, another key, a stale or future grant, or junk', () => {
  const grant = grantFor(key!, 'payment-p1', 'refund', args, now);
  expect(isGranted([key!], message(grant, { workflowId: 'payment-p2' }), now)).toBe(false);
  expect(isGranted([key!], message(grant, { name: 'void' }), now)).toBe(false);
  expect(isGranted([key!], message(grant, { args: [{ ...args[0], amount: '100' }] }), now)).toBe(false);
  expect(isGranted([key!], message(grant, { args: [{ ...args[0], createdBy: 'nobody' }] }), now)).toBe(false);
  expect(isGranted(grantKeys({ SECRETS_KEY: OTHER }), message(grant), now)).toBe(false);
  expect(isGranted([key!], message(grant), now + GRANT_MAX_AGE_MS + 1)).toBe(false);
  expect(isGranted([key!], message(grant), now - GRANT_MAX_AGE_MS - 1)).toBe(false);
  for (const junk of [null, undefined, 'x', {}, { issuedAtMs: now, proof: 'zz' }, { issuedAtMs: 'now', proof: grant.proof }])
    expect(isGranted([key!], message(junk), now)).toBe(false);
});

it('a grant made under the previous key still holds during a rotation', () => {
  const [old] = grantKeys({ SECRETS_KEY: OTHER });
  const grant = grantFor(old!, 'payment-p1', 'refund', args, now);
  expect(isGranted(grantKeys({ SECRETS_KEY: KEY, SECRETS_KEY_PREVIOUS: OTHER }), message(grant), now)).toBe(true);
});
