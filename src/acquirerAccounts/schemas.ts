import { nameSchema } from '../domain/names';
import { z } from '../domain/zod';
import { currencyCode } from '../domain/fields';
import { MAX_AMOUNT } from '../money/amount';
import { PaymentModeSchema } from '../payments/schemas';
import { ACQUIRER_KINDS } from './credentials';
import { DEFAULT_RULE, INSTALLATION_RULE } from './decision';

/**
 * Request and answer shapes of acquirer accounts and routes (docs/acquirers.md). Credentials are an
 * open object here: their fields depend on the acquirer and are checked by credentials.ts.
 */
const text = (max: number) => z.string({ error: 'must be a string' }).trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);
/**
 * An account's name: the name rule of usernames (src/domain/names.ts: NFKC, no control, invisible or
 * direction-changing characters, letters of one script), single spaces allowed; unique within the
 * business whatever the case (accounts.ts). docs/security.md, "Rules added in the security round
 * (issue 37)".
 */
const AccountName = nameSchema({ min: 1, max: 100, spaces: true, typeError: 'must be a string' }).openapi({
  description: 'Unique within the business (whatever the case); stored in NFKC; letters of one script, no invisible or direction-changing characters',
});
export const ModeSchema = z.enum(['live', 'test'], { error: 'must be live or test' });
const AccountStatus = z.enum(['ACTIVE', 'INACTIVE'], { error: 'must be ACTIVE or INACTIVE' });
const CredentialsInput = z.record(z.string(), z.unknown(), { error: 'must be an object' }).openapi({
  description:
    'sandbox: {}; stripe: { apiKey, webhookSecret }; adyen: { apiKey, hmacKey, environment ("TEST" or "LIVE"), liveEndpointUrlPrefix? (LIVE only: for two-step capture and release) }. Write-only',
});

export const CreateAccountBody = z
  .strictObject({
    name: AccountName,
    acquirer: z.enum(ACQUIRER_KINDS, { error: 'must be sandbox, stripe or adyen' }),
    mode: ModeSchema,
    merchantAccountId: text(100).openapi({ description: 'The MID: how the acquirer knows this business under this contract' }),
    credentials: CredentialsInput,
  })
  .openapi('CreateAcquirerAccountRequest');
export type CreateAccountBody = z.infer<typeof CreateAccountBody>;

export const UpdateAccountBody = z
  .strictObject({
    name: AccountName.optional(),
    credentials: CredentialsInput.optional().openapi({ description: 'New credentials replace the old at once' }),
    status: AccountStatus.optional(),
  })
  .openapi('UpdateAcquirerAccountRequest');
export type UpdateAccountBody = z.infer<typeof UpdateAccountBody>;

export const AccountParams = z.object({ id: z.string().max(100, 'must be an account id') });

export const AccountRecord = z
  .object({
    id: z.string(),
    name: z.string(),
    acquirer: z.enum(ACQUIRER_KINDS),
    mode: ModeSchema,
    merchantAccountId: z.string(),
    status: AccountStatus,
    credentials: z
      .record(z.string(), z.string())
      .openapi({ description: 'Each field masked: "••••" and its last 4 characters', example: { apiKey: '••••3xYz' } }),
    notificationPath: z.string().openapi({ example: '/internal/acquirer/acct_9sZ2k0aBcDeFgHiJkLmN/notifications' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('AcquirerAccount');
export type AccountRecord = z.infer<typeof AccountRecord>;

const bound = z.number({ error: 'must be a number' }).min(0, 'must be 0 or more').max(MAX_AMOUNT, `must be at most ${MAX_AMOUNT}`);
/** A condition list: left out to match anything; given, it names at least one value. */
const oneOrMore = <T extends z.ZodType>(item: T, max: number) =>
  z.array(item).min(1, 'must name at least one value; leave it out to match any').max(max, `must have at most ${max} entries`);

export const RouteMatch = z
  .strictObject({
    storeExternalIds: oneOrMore(z.string().max(100, 'must be at most 100 characters'), 1000).optional(),
    currencies: oneOrMore(
      currencyCode().transform((v) => v.toUpperCase()),
      50,
    ).optional(),
    paymentModes: oneOrMore(PaymentModeSchema, 2).optional(),
    minAmount: bound.optional(),
    maxAmount: bound.optional(),
  })
  .openapi('AcquirerRouteMatch');

/** A payment's `routeRule` says `default` or `installation` when no rule chose its account: no rule may be called so. */
const RESERVED_RULE_NAMES = [DEFAULT_RULE, INSTALLATION_RULE];
const RuleName = text(100)
  .refine((name) => !RESERVED_RULE_NAMES.includes(name.toLowerCase()), {
    message: `"${DEFAULT_RULE}" and "${INSTALLATION_RULE}" are reserved: a payment's routeRule says so when no rule chose its account`,
  })
  .openapi({ description: `Unique within the routes; not "${DEFAULT_RULE}" or "${INSTALLATION_RULE}" (whatever the case): reserved` });

export const RouteRule = z
  .strictObject({
    name: RuleName,
    accountId: z.string({ error: 'must be an account id' }).min(1, 'must be an account id').max(100, 'must be an account id'),
    match: RouteMatch.default({}),
  })
  .openapi('AcquirerRouteRule');
export type RouteRule = z.infer<typeof RouteRule>;

export const MAX_RULES = 100;

export const RoutesBody = z
  .strictObject({
    mode: ModeSchema,
    rules: z.array(RouteRule).max(MAX_RULES, `must have at most ${MAX_RULES} rules`),
    // "" is not "no default" (null is): it once slipped past the checks to the foreign key, a 500.
    defaultAccountId: z.string({ error: 'must be an account id or null' }).min(1, 'must be an account id or null').max(100, 'must be an account id').nullable(),
  })
  .openapi('AcquirerRoutesRequest');
export type RoutesBody = z.infer<typeof RoutesBody>;

export const RoutesQuery = z.object({ mode: ModeSchema });

export const RoutesRecord = z
  .object({
    mode: ModeSchema,
    rules: z.array(RouteRule),
    defaultAccountId: z.string().nullable(),
    version: z.number().int().openapi({ description: 'Counts saves from 1; 0 while never saved' }),
    updatedAt: z.string().nullable(),
    updatedBy: z.string().nullable(),
  })
  .openapi('AcquirerRoutes');
export type RoutesRecord = z.infer<typeof RoutesRecord>;
