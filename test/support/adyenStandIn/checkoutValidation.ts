import type Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv/dist/2020';
import { adyenFile, FIXTURE } from './fixtures';
import { adyenAjv, describeErrors as describe, headerOf as header, jsonBodyOf } from './schemaCheck';

/**
 * Checks the Checkout modification calls (capture, cancel of a payment) against Adyen's Checkout
 * OpenAPI document (CheckoutService-v72.json, the version @adyen/api-library's ModificationsApi
 * sends): the path, method, parameters (the Idempotency-Key header too), the API key, and the
 * body against the operation's request schema, whose `$ref`s resolve to the document's components.
 */
export type CheckoutOperation = 'captures' | 'cancels';

/** The modification endpoints the stand-in plays; every other Checkout path is unknown to it. */
const PLAYED: Record<string, CheckoutOperation> = {
  '/payments/{paymentPspReference}/captures': 'captures',
  '/payments/{paymentPspReference}/cancels': 'cancels',
};

const CHECKOUT_ID = 'adyen:CheckoutService-v72';

/** Adyen's description of the Idempotency-Key header: "a maximum of 64 characters". */
const IDEMPOTENCY_KEY_MAX = 64;

interface Route {
  operation: CheckoutOperation;
  method: string;
  pattern: RegExp;
  names: string[];
  parameters: { name: string; in: string; required?: boolean; schema: object }[];
  body: ValidateFunction;
}

export interface CheckedCheckoutRequest {
  operation: CheckoutOperation | null;
  params: Record<string, string>;
  idempotencyKey?: string;
  body?: any;
  errors: string[];
}

export class CheckoutRequestValidator {
  private readonly ajv: Ajv2020;
  private readonly routes: Route[] = [];
  /** '/v72' as the TEST host has it; a LIVE account's prefixed host puts '/checkout' in front. */
  private readonly prefix: string;

  constructor() {
    const doc = adyenFile(FIXTURE.checkout);
    this.prefix = new URL(doc.servers[0].url).pathname.replace(/\/$/, '');
    this.ajv = adyenAjv();
    this.ajv.addSchema({ $id: CHECKOUT_ID, components: doc.components });
    for (const [template, operation] of Object.entries(PLAYED)) {
      const names: string[] = [];
      const source = template.replace(/\{(\w+)\}/g, (_m, name: string) => (names.push(name), '([^/]+)'));
      for (const [method, op] of Object.entries<any>(doc.paths[template])) {
        const parameters = (op.parameters ?? []).map((p: any) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p));
        const ref = op.requestBody.content['application/json'].schema.$ref as string;
        this.routes.push({
          operation,
          method: method.toUpperCase(),
          pattern: new RegExp(`^(?:/checkout)?${this.prefix}${source}$`),
          names,
          parameters,
          body: this.ajv.compile({ $ref: `${CHECKOUT_ID}${ref}` }),
        });
      }
    }
  }

  /** Whether the path is Checkout's (its version prefix), so this validator answers for it. */
  owns(pathname: string): boolean {
    return pathname.startsWith(`${this.prefix}/`) || pathname.startsWith(`/checkout${this.prefix}/`);
  }

  check(req: { method: string; url: string; headers: Record<string, string | string[] | undefined>; rawBody: string }): CheckedCheckoutRequest {
    const url = new URL(req.url, 'http://stand-in');
    const errors: string[] = [];
    const byPath = this.routes.filter((r) => r.pattern.test(url.pathname));
    const route = byPath.find((r) => r.method === req.method);
    if (!route) {
      errors.push(byPath.length ? `${req.method} is not allowed on ${url.pathname}` : `no such modification path in CheckoutService-v72.json: ${url.pathname}`);
      return { operation: null, params: {}, errors };
    }
    const match = route.pattern.exec(url.pathname)!;
    const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(match[i + 1])]));
    for (const name of url.searchParams.keys()) errors.push(`query parameter ${name} is not in the document`);
    for (const p of route.parameters) {
      const value = p.in === 'path' ? params[p.name] : p.in === 'header' ? header(req.headers, p.name) : undefined;
      if (value === undefined || value === '') {
        if (p.required) errors.push(`${p.in} parameter ${p.name} is required`);
        continue;
      }
      const validate = this.ajv.compile(p.schema);
      if (!validate(value)) errors.push(...describe(`${p.in} parameter ${p.name}`, validate.errors));
    }
    const idempotencyKey = header(req.headers, 'idempotency-key');
    if (idempotencyKey !== undefined && idempotencyKey.length > IDEMPOTENCY_KEY_MAX)
      errors.push(`header Idempotency-Key is longer than ${IDEMPOTENCY_KEY_MAX} characters`);
    // The document's security: ApiKeyAuth (X-API-Key) or BasicAuth; the adapter uses the key.
    if (!header(req.headers, 'x-api-key') && !/^Basic /.test(header(req.headers, 'authorization') ?? ''))
      errors.push('header X-API-Key is missing (Checkout takes an API key or basic auth)');
    const body = jsonBodyOf(req, errors) as any;
    if (body === undefined) return { operation: route.operation, params, idempotencyKey, errors };
    if (!route.body(body)) errors.push(...describe('body', route.body.errors));
    // The documents' descriptions: "Your reference for the ... request. Maximum length: 80 characters."
    if (typeof body?.reference === 'string' && body.reference.length > 80) errors.push('body/reference is longer than 80 characters');
    return { operation: route.operation, params, idempotencyKey, body, errors };
  }
}
