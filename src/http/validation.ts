import type { ZodError, ZodType } from 'zod';
import { invalid } from '../domain/errors';
import { inputShapeProblem } from '../security/inputShape';

/** `rules[2].accountId`: array positions in brackets, as a reader writes them. */
function fieldName(where: string, path: readonly PropertyKey[]): string {
  let name = where;
  for (const part of path) name = typeof part === 'number' ? `${name}[${part}]` : name ? `${name}.${String(part)}` : String(part);
  return name;
}

/** A zod failure as one 400 message that names each field and the reason. */
export function describeZodError(error: ZodError, where: string, whole = 'body'): string {
  return error.issues
    .map((issue) => {
      let field = fieldName(where, issue.path);
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
 * Refuses, with 400 naming the field, input no endpoint accepts: NUL characters (PostgreSQL cannot
 * store them), reserved object keys such as `__proto__`, and nesting deeper than MAX_INPUT_DEPTH
 * (src/security/inputShape.ts). Runs before any handler or schema.
 */
export function rejectHostileShapes(input: unknown, where: string): void {
  const problem = inputShapeProblem(input, where);
  if (problem) throw invalid(problem);
}
