import { STATUS_CODES } from 'node:http';
import type { Context, Next } from 'koa';
import { z } from 'zod';
import { SandboxError } from './engine';

/** HTTP plumbing shared by the sandbox's routes: the API's error body, and input checks. */
export interface SandboxLogger {
  info: (...args: unknown[]) => void;
  warn: (...args: unknown[]) => void;
  error: (...args: unknown[]) => void;
}

export function sendError(ctx: Context, status: number, message: string): void {
  ctx.status = status;
  ctx.body = { timestamp: new Date().toISOString(), status, error: STATUS_CODES[status] ?? 'Error', message };
}

/** Turns thrown errors into the API's error body; anything unexpected is a logged 500. */
export function errorMiddleware(logger: SandboxLogger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) sendError(ctx, 404, `no route ${ctx.method} ${ctx.path}`);
    } catch (err) {
      if (err instanceof SandboxError) return sendError(ctx, err.status, err.message);
      const status = (err as { status?: number; expose?: boolean }).status;
      if (status && status >= 400 && status < 500) return sendError(ctx, status, (err as Error).message);
      logger.error({ err }, 'sandbox request failed');
      sendError(ctx, 500, 'internal error');
    }
  };
}

/** Validates input, answering 400 with a message that names the field and the reason. */
export function parse<T extends z.ZodType>(schema: T, value: unknown, what = 'body'): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const message = result.error.issues
    .map((i) => (i.code === 'unrecognized_keys' ? `${i.keys.join(', ')}: unknown field` : `${i.path.length ? i.path.join('.') : what}: ${i.message}`))
    .join('; ');
  throw new SandboxError(400, message);
}

/**
 * Every id in a path is checked here, at the edge: a fixed alphabet, and never the name of a
 * property every object has (`__proto__`, `constructor`, ...), so no id can reach an object's
 * prototype even where a lookup is not a Map.
 */
const idSchema = (max: number) =>
  z
    .string()
    .regex(new RegExp(`^[A-Za-z0-9._:-]{1,${max}}$`), `must be 1-${max} letters, digits or . _ : -`)
    .refine((v) => !(v in Object.prototype) && v !== 'prototype', 'is a reserved name');
export const deviceIdSchema = idSchema(128);
export const refSchema = idSchema(200);
export const modeSchema = z.enum(['CARD', 'QR_CODE']);
/** The merchant account (MID) whose books a bill or a close belongs to (docs/settlement.md, "Books per merchant account (MID)"); absent: SANDBOX. */
export const merchantAccountIdSchema = z.string('must be a string').min(1, 'must be 1-100 characters').max(100, 'must be 1-100 characters');
