import { z } from '../domain/zod';
import { currencyCode } from '../domain/fields';
import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX } from '../domain/listQuery';
import { Metadata } from './metadata';
import { normalizeCountry, normalizeTimeZone } from './places';

/**
 * Request and response schemas of stores and terminals (docs/stores-and-terminals.md). One schema per body is
 * used for POST and PUT alike (PUT replaces the record, see docs/stores-and-terminals.md). Bodies
 * are strict: an unknown field is a 400. Normalisation (upper-case country and currency, canonical
 * zone spelling) happens in the mappers below, so the schemas document the input as sent.
 */

export const RECORD_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export const TERMINAL_TYPES = ['POS', 'MPOS', 'SOFTPOS', 'KIOSK', 'UNATTENDED'] as const;

const notBlank = (s: string): boolean => s.trim().length > 0;

/** A required free-text field: a non-blank string of bounded length. */
const requiredText = (max: number) => z.string().max(max, `must be at most ${max} characters`).refine(notBlank, 'must not be blank');

/** An optional free-text field: omitted or null means not set. */
const optionalText = (max: number) =>
  z.string({ error: 'must be a string' }).max(max, `must be at most ${max} characters`).refine(notBlank, 'must not be blank').nullish();

/** A store as the dashboard names it (issue 31): its id, name and mode; reads that list stores by name extend it. */
export const StoreByName = z.object({ externalId: z.string(), name: z.string(), mode: z.enum(['live', 'test']) });

export const RecordStatus = z.enum(RECORD_STATUSES, { error: 'must be ACTIVE or INACTIVE' });

export const Country = z
  .string({ error: 'must be a two-letter ISO 3166-1 country code' })
  .refine((v) => normalizeCountry(v) !== undefined, 'must be a two-letter ISO 3166-1 country code')
  .openapi({ example: 'DE', description: 'ISO 3166-1 alpha-2, any case on input; stored upper case' });

const TimeZone = z
  .string({ error: 'must be an IANA time zone id such as Europe/Berlin' })
  .refine((v) => normalizeTimeZone(v) !== undefined, 'must be an IANA time zone id such as Europe/Berlin')
  .openapi({ example: 'Europe/Berlin' });

const Currency = currencyCode().openapi({ example: 'EUR', description: 'ISO 4217, one of the supported currencies; stored upper case' });

const Mcc = z
  .string({ error: 'must be a string of exactly 4 digits' })
  .regex(/^\d{4}$/, 'must be exactly 4 digits')
  .openapi({ example: '5411' });

/** The defaults of a store's tipping (docs/tips.md): off, 10, 15 and 20 %, a custom amount allowed. */
export const TIPPING_DEFAULTS = { enabled: false, percentages: [10, 15, 20], allowCustom: true } as const;

const TipPercentage = z
  .number({ error: 'must be a whole number from 1 to 100' })
  .int('must be a whole number from 1 to 100')
  .min(1, 'must be a whole number from 1 to 100')
  .max(100, 'must be a whole number from 1 to 100');

/** What the terminal offers a customer when a payment asks for a tip; each field omitted takes its default. */
export const TippingInput = z
  .strictObject({
    enabled: z
      .boolean({ error: 'must be a boolean' })
      .optional()
      .openapi({ description: 'Payments of the store may ask for a tip (tip "ASK"); default false' }),
    percentages: z
      .array(TipPercentage, { error: 'must be an array of 1 to 3 whole numbers from 1 to 100' })
      .min(1, 'must name 1 to 3 percentages')
      .max(3, 'must name 1 to 3 percentages')
      .optional()
      .openapi({ description: 'The percentages the terminal offers, 1 to 3 whole numbers from 1 to 100; default [10, 15, 20]', example: [10, 15, 20] }),
    allowCustom: z.boolean({ error: 'must be a boolean' }).optional().openapi({ description: 'The terminal also lets the customer type a tip; default true' }),
  })
  .openapi('TippingInput');
export type TippingInput = z.infer<typeof TippingInput>;

export const StoreInput = z
  .strictObject({
    name: requiredText(200),
    addressLine1: optionalText(200),
    city: optionalText(100),
    postalCode: optionalText(20),
    country: Country,
    timezone: TimeZone,
    defaultCurrency: Currency.nullish(),
    mcc: Mcc.nullish(),
    metadata: Metadata.optional(),
    status: RecordStatus.optional().openapi({ description: 'Default ACTIVE on create; on PUT, omitted keeps the current status' }),
    tipping: TippingInput.optional().openapi({
      description: 'Tips asked on the terminal (docs/tips.md). On create, omitted takes the defaults; on PUT, omitted keeps the current settings',
    }),
  })
  .openapi('StoreInput');
export type StoreInput = z.infer<typeof StoreInput>;

export const TerminalInput = z
  .strictObject({
    label: requiredText(100),
    terminalType: z.enum(TERMINAL_TYPES, { error: `must be one of ${TERMINAL_TYPES.join(', ')}` }).nullish(),
    vendor: optionalText(100),
    model: optionalText(100),
    serialNumber: optionalText(100).openapi({ description: "Unique among the business's terminals, whatever its case; a duplicate is 409" }),
    metadata: Metadata.optional(),
    status: RecordStatus.optional().openapi({ description: 'Default ACTIVE on create; on PUT, omitted keeps the current status' }),
  })
  .openapi('TerminalInput');
export type TerminalInput = z.infer<typeof TerminalInput>;

/** The store columns a POST or PUT writes: every descriptive field is replaced; status only when sent. */
export function storeData(input: StoreInput) {
  return {
    name: input.name,
    addressLine1: input.addressLine1 ?? null,
    city: input.city ?? null,
    postalCode: input.postalCode ?? null,
    country: normalizeCountry(input.country)!,
    timezone: normalizeTimeZone(input.timezone)!,
    defaultCurrency: input.defaultCurrency ? input.defaultCurrency.toUpperCase() : null,
    mcc: input.mcc ?? null,
    metadata: (input.metadata ?? {}) as object,
    ...(input.status ? { status: input.status } : {}),
    ...(input.tipping ? tippingData(input.tipping) : {}),
  };
}

/** The tipping columns of a sent `tipping`: what it names, the defaults for the rest. */
function tippingData(t: TippingInput) {
  return {
    tippingEnabled: t.enabled ?? TIPPING_DEFAULTS.enabled,
    tipPercentages: t.percentages ?? [...TIPPING_DEFAULTS.percentages],
    tipAllowCustom: t.allowCustom ?? TIPPING_DEFAULTS.allowCustom,
  };
}

/** The terminal columns a POST or PUT writes; the device link is the operator's and never touched here. */
export function terminalData(input: TerminalInput) {
  return {
    label: input.label,
    terminalType: input.terminalType ?? null,
    vendor: input.vendor ?? null,
    model: input.model ?? null,
    serialNumber: input.serialNumber ?? null,
    metadata: (input.metadata ?? {}) as object,
    ...(input.status ? { status: input.status } : {}),
  };
}

// ---- path and query parameters ----

export const MerchantParams = z.object({ merchantExternalId: z.string().openapi({ example: 'acme' }) });
export const StoreParams = MerchantParams.extend({ storeExternalId: z.string().openapi({ example: 'store_4fQ2...' }) });
export const TerminalParams = StoreParams.extend({ terminalExternalId: z.string().openapi({ example: 'term_9xK1...' }) });

/** A whole number in a query string, with bounds; one message per problem. */
const queryInt = (min: number, max: number | undefined, hint: string) =>
  z
    .string()
    .superRefine((v, ctx) => {
      if (!/^\d{1,9}$/.test(v)) ctx.addIssue({ code: 'custom', message: `must be a whole number${hint}` });
      else if (Number(v) < min) ctx.addIssue({ code: 'custom', message: `must be at least ${min}` });
      else if (max !== undefined && Number(v) > max) ctx.addIssue({ code: 'custom', message: `must be at most ${max}` });
    })
    // A query string is text on the wire; the document says what it means, so generated clients take a number.
    .openapi({ type: 'integer', minimum: min, ...(max !== undefined ? { maximum: max } : {}) });

export const STORE_SORTS = ['name', '-name', 'createdAt', '-createdAt'] as const;

/**
 * Paging for the search and the plain lists alike, with the kit's default and maximum
 * (src/domain/listQuery.ts) but its own messages: a query string here is checked as text
 * (docs/stores-and-terminals.md).
 */
const PageParams = {
  page: queryInt(0, undefined, ', 0 or more').optional().openapi({ description: '0-based, default 0' }),
  size: queryInt(1, PAGE_SIZE_MAX, ` from 1 to ${PAGE_SIZE_MAX}`)
    .optional()
    .openapi({ description: `Default ${PAGE_SIZE_DEFAULT}, at most ${PAGE_SIZE_MAX}` }),
};

/**
 * The plain lists (stores, a store's terminals) stay plain JSON arrays, one page of
 * each: bounded whatever a business stores (issue 22). docs/stores-and-terminals.md.
 */
export const ListQuery = z.strictObject(PageParams).openapi('ListPageQuery');
export type ListQuery = z.infer<typeof ListQuery>;

export const StoreSearchQuery = z
  .strictObject({
    q: z
      .string()
      .max(200, 'must be at most 200 characters')
      .optional()
      .openapi({ description: 'Free text over name, city, externalId and postalCode, case-insensitive' }),
    status: RecordStatus.optional(),
    country: Country.optional(),
    hasTerminals: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
    sort: z
      .enum(STORE_SORTS, { error: `must be one of ${STORE_SORTS.join(', ')}` })
      .optional()
      .openapi({ description: 'Default name' }),
    ...PageParams,
  })
  .openapi('StoreSearchQuery');
export type StoreSearchQuery = z.infer<typeof StoreSearchQuery>;

export const DeleteQuery = z.strictObject({
  force: z.enum(['true', 'false'], { error: 'must be true or false' }).optional().openapi({ description: 'true deletes despite recent payments' }),
});

// ---- responses ----

export const StoreRecord = z
  .object({
    externalId: z.string(),
    name: z.string(),
    addressLine1: z.string().nullable(),
    city: z.string().nullable(),
    postalCode: z.string().nullable(),
    country: z.string(),
    timezone: z.string(),
    defaultCurrency: z.string().nullable(),
    mcc: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    status: RecordStatus,
    tipping: z
      .object({ enabled: z.boolean(), percentages: z.array(z.number().int()), allowCustom: z.boolean() })
      .openapi('Tipping', { description: 'Tips asked on the terminal (docs/tips.md)' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Store');

export const StorePage = z
  .object({
    content: z.array(StoreRecord),
    totalElements: z.number().int(),
    totalPages: z.number().int(),
    page: z.number().int(),
    size: z.number().int(),
  })
  .openapi('StorePage');

export const TerminalRecord = z
  .object({
    externalId: z.string(),
    storeExternalId: z.string(),
    label: z.string(),
    terminalType: z.enum(TERMINAL_TYPES).nullable(),
    vendor: z.string().nullable(),
    model: z.string().nullable(),
    serialNumber: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    status: RecordStatus,
    ready: z.boolean().openapi({ description: 'True once the operator has linked the terminal to its device; only then can it take payments' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Terminal');
