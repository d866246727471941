import { call } from '../support/http';
import type { TestStack } from '../support/stack';
import { eventually } from '../payments/helpers';

/** The development mailbox of the test stack's sandbox (docs/receipts.md, "The development mailbox"). */
export interface MailboxEntry {
  to: string;
  subject: string;
  text: string;
  html: string | null;
  from: string;
  messageId: string | null;
  receivedAt: string;
}

export function mailbox(stack: TestStack) {
  return {
    read: async (): Promise<MailboxEntry[]> => (await call<MailboxEntry[]>(stack.sandboxUrl, 'GET', '/sim/mailbox')).body,
    accepting: async (accepting: boolean): Promise<{ accepting: boolean; refused: number }> =>
      (await call(stack.sandboxUrl, 'PUT', '/sim/mailbox', { body: { accepting } })).body,
  };
}

/** The mails to `to` whose subject names the payment's pspReference, oldest first, once there are `count`. */
export async function mailsFor(stack: TestStack, to: string, pspReference: string, count: number, timeoutMs = 20_000): Promise<MailboxEntry[]> {
  return eventually(
    async () => {
      const mails = (await mailbox(stack).read()).filter((m) => m.to === to && m.subject.includes(pspReference)).reverse();
      return mails.length >= count ? mails : undefined;
    },
    timeoutMs,
    200,
  );
}

/** The payment's RECEIPT_* events as the dashboard shows them (an ADMIN's token). */
export async function receiptEvents(stack: TestStack, token: string, paymentId: string): Promise<{ eventType: string; eventId: string }[]> {
  const detail = await call(stack.apiUrl, 'GET', `/api/dashboard/payments/${paymentId}`, { token });
  return (detail.body.webhookEvents as { eventType: string; eventId: string }[]).filter((e) => e.eventType.startsWith('RECEIPT_'));
}
