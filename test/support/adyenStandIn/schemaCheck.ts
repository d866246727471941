import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * What every validator of the stand-in shares: one way to load Adyen's schemas into ajv (all
 * errors, the formats Adyen's documents use, including OpenAPI's int32/int64), one way to say
 * what failed, one way to read a header.
 */
export function adyenAjv(): Ajv2020 {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 31 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  return ajv;
}

/** ajv's errors as lines naming where (`body`, `query`, ...), the path and the reason, with the offending property or the allowed values. */
export const describeErrors = (where: string, errors: ErrorObject[] | null | undefined): string[] =>
  (errors ?? []).map((e) => {
    const extra =
      e.keyword === 'additionalProperties'
        ? ` (${(e.params as { additionalProperty: string }).additionalProperty})`
        : e.keyword === 'enum'
          ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})`
          : '';
    return `${where}${e.instancePath} ${e.message}${extra}`;
  });

export const headerOf = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
};

/**
 * The JSON body of a request that must send one: checks its Content-Type, parses it; `undefined`
 * (with the reason added to `errors`) when it is not JSON.
 */
export function jsonBodyOf(req: { headers: Record<string, string | string[] | undefined>; rawBody: string }, errors: string[]): unknown {
  if (!/^application\/json\b/i.test(headerOf(req.headers, 'content-type') ?? '')) errors.push('header Content-Type must be application/json');
  try {
    return JSON.parse(req.rawBody) as unknown;
  } catch {
    errors.push('body is not JSON');
    return undefined;
  }
}
