import { z } from '../domain/zod';

/**
 * The free-form `metadata` object of stores and terminals (docs/stores-and-terminals.md): the one home
 * of its limits. Entries (50) and key length (100) bound it as they always did; value length (as Stripe's metadata) and the
 * whole object's size bound what one record, and so every list of records, can carry: 50 stores
 * of 1 MiB metadata each made one store list 46 MiB (issue 22).
 */
export const METADATA_MAX_ENTRIES = 50;
export const METADATA_MAX_KEY_LENGTH = 100;
/** Characters of a value: a string's own characters, any other JSON value's as JSON text. */
export const METADATA_MAX_VALUE_LENGTH = 500;
/** Bytes of the whole object as JSON (UTF-8). */
export const METADATA_MAX_BYTES = 8192;

const characters = (s: string): number => [...s].length;
const valueLength = (v: unknown): number => characters(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));
const shortened = (s: string): string => `'${[...s].slice(0, 20).join('')}...'`;

/** Free-form JSON object; kept as sent (the original object, not a copy zod rebuilt). */
export const Metadata = z
  .unknown()
  .superRefine((v, ctx) => {
    if (v === undefined || v === null) return;
    if (typeof v !== 'object' || Array.isArray(v)) {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
      return;
    }
    const entries = Object.entries(v);
    if (entries.length > METADATA_MAX_ENTRIES) {
      ctx.addIssue({ code: 'custom', message: `must have at most ${METADATA_MAX_ENTRIES} entries (has ${entries.length})` });
    }
    const long = entries.find(([k]) => characters(k) > METADATA_MAX_KEY_LENGTH);
    if (long !== undefined) {
      ctx.addIssue({ code: 'custom', message: `keys must be at most ${METADATA_MAX_KEY_LENGTH} characters (${shortened(long[0])} is longer)` });
    }
    // The first value over the limit is named (metadata.<key>), not all fifty of them.
    const big = entries.find(([k, value]) => characters(k) <= METADATA_MAX_KEY_LENGTH && valueLength(value) > METADATA_MAX_VALUE_LENGTH);
    if (big !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [big[0]],
        message: `value must be at most ${METADATA_MAX_VALUE_LENGTH} characters (a string's characters, any other value's as JSON; has ${valueLength(big[1])})`,
      });
    }
    const bytes = Buffer.byteLength(JSON.stringify(v), 'utf8');
    if (bytes > METADATA_MAX_BYTES) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${METADATA_MAX_BYTES} bytes as JSON (is ${bytes})` });
    }
  })
  .openapi({
    type: 'object',
    additionalProperties: true,
    description:
      `Free-form JSON object: at most ${METADATA_MAX_ENTRIES} entries, keys at most ${METADATA_MAX_KEY_LENGTH} characters, ` +
      `each value at most ${METADATA_MAX_VALUE_LENGTH} characters (non-string values counted as JSON), ` +
      `the whole object at most ${METADATA_MAX_BYTES} bytes as JSON; values stored as sent`,
    example: { region: 'north' },
  });
