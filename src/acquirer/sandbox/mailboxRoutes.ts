import { Router } from '@koa/router';
import { z } from 'zod';
import { parse } from './http';
import type { Mailbox } from './mailbox';
import { SandboxError } from './engine';

/**
 * The development mailbox over HTTP (docs/receipts.md, "The development mailbox"): what it
 * received, newest first, and the switch that makes it refuse mail (SMTP 421) until switched back.
 * Without a mailbox (SMTP_URL names a real relay) both answer 404.
 */
const settingsSchema = z.strictObject({ accepting: z.boolean({ error: 'must be true or false' }) });

export function mailboxRoutes(mailbox: Mailbox | undefined): Router {
  const router = new Router();
  const own = (): Mailbox => {
    if (!mailbox) throw new SandboxError(404, 'no development mailbox: SMTP_URL names the mail server');
    return mailbox;
  };

  router.get('/sim/mailbox', (ctx) => {
    ctx.body = own()
      .messages()
      .map((m) => ({ to: m.to.join(', '), subject: m.subject, text: m.text, receivedAt: m.receivedAt, from: m.from, messageId: m.messageId, html: m.html }));
  });

  router.put('/sim/mailbox', (ctx) => {
    const box = own();
    box.setAccepting(parse(settingsSchema, ctx.request.body ?? {}).accepting);
    ctx.body = { accepting: box.accepting(), refused: box.refused() };
  });

  return router;
}
