import type { ZodError, ZodType } from 'zod';
import { invalid } from '../domain/errors';

/** A zod failure as one 400 message that names each field and the reason. */
export function describeZodError(error: ZodError, where: string, whole = 'body'): string {
  return error.issues
    .map((issue) => {
      let field = [where, ...issue.path.map(String)].filter(Boolean).join('.');
      let reason = issue.message;
      if (issue.code === 'unrecognized_keys') {
        field = [field, issue.keys.join(', ')].filter(Boolean).join('.');
        reason = `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')} not accepted`;
      }
      if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) reason = 'is required';
      return `${field || whole}: ${reason}`;
    })
    .join('; ');
}

/** Parses input with a schema or throws 400 naming the field and the reason. */
export function parseOr400<T>(schema: ZodType<T>, input: unknown, where: string, whole = 'body'): T {
  const result = schema.safeParse(input);
  if (!result.success) throw invalid(describeZodError(result.error, where, whole));
  return result.data;
}

/**
 * PostgreSQL cannot store NUL characters in text or JSON; a request carrying one anywhere (value
 * or object key) is refused with 400 naming the field, before any handler runs.
 */
export function rejectNulCharacters(input: unknown, where: string): void {
  const visit = (value: unknown, path: string): void => {
    if (typeof value === 'string') {
      if (value.includes('\u0000')) throw invalid(`${path || where}: must not contain NUL characters`);
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => visit(v, path ? `${path}.${i}` : String(i)));
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        const field = path ? `${path}.${k}` : k;
        if (k.includes('\u0000')) throw invalid(`${path || where}: keys must not contain NUL characters`);
        visit(v, field);
      }
    }
  };
  visit(input, '');
}
