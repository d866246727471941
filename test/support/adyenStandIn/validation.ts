import type Ajv2020 from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv/dist/2020';
import { type CheckoutOperation, CheckoutRequestValidator } from './checkoutValidation';
import { type DisputeOperation, DisputeRequestValidator } from './disputeValidation';
import { adyenFile, FIXTURE } from './fixtures';
import { adyenAjv, describeErrors as describe, headerOf as header, jsonBodyOf } from './schemaCheck';

/**
 * Checks every request against Adyen's own OpenAPI documents: the cloud device API
 * (CloudDeviceService-v1.json) for the path, method, parameters and credentials, and the Terminal
 * API (TerminalAPI-v1.json) for the SaleToPOIRequest body, whose `$ref`s resolve to that
 * document's `#/components/schemas/...`; Checkout's modification calls against
 * CheckoutService-v72.json (./checkoutValidation.ts); the Disputes API's against
 * DisputeService-v30.json (./disputeValidation.ts).
 */
export type CloudDeviceOperation = 'sync' | 'async' | 'status' | 'connectedDevices';
export type AdyenOperation = CloudDeviceOperation | CheckoutOperation | DisputeOperation;

export interface CheckedRequest {
  operation: AdyenOperation | null;
  /** The path's parameters: merchantAccount, deviceId; paymentPspReference for a modification. */
  params: Record<string, string>;
  /** A modification's Idempotency-Key header. */
  idempotencyKey?: string;
  /** The parsed JSON body (POST), undefined when there is none or it is not JSON. */
  body?: any;
  errors: string[];
}

export interface IncomingRequest {
  method: string;
  /** The path with its query string, as received. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: string;
}

interface Route {
  operation: CloudDeviceOperation;
  method: string;
  pattern: RegExp;
  names: string[];
  parameters: { name: string; in: string; required?: boolean; schema: object }[];
  hasBody: boolean;
}

const TERMINAL_ID = 'adyen:TerminalAPI-v1';

/**
 * The Terminal API document declares no `additionalProperties` anywhere, so a misspelt field
 * (`PaymentRequst`, `RequestedAmmount`) would pass unseen; `strict` closes every object schema
 * to the properties the document names, which is what the tests want to catch.
 */
function closeObjects(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(closeObjects);
  if (!node || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (schema.properties && typeof schema.properties === 'object' && schema.additionalProperties === undefined) schema.additionalProperties = false;
  Object.values(schema).forEach(closeObjects);
}

function routesOf(doc: any): Route[] {
  const prefix = new URL(doc.servers[0].url).pathname.replace(/\/$/, ''); // '/v1', as the library sends
  const routes: Route[] = [];
  for (const [template, item] of Object.entries<any>(doc.paths)) {
    const names: string[] = [];
    const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_m, name: string) => (names.push(name), '([^/]+)'));
    for (const [method, op] of Object.entries<any>(item)) {
      routes.push({
        operation: template.split('/').pop() as CloudDeviceOperation,
        method: method.toUpperCase(),
        pattern: new RegExp(`^${prefix}${source}$`),
        names,
        parameters: op.parameters ?? [],
        hasBody: !!op.requestBody,
      });
    }
  }
  return routes;
}

export class AdyenRequestValidator {
  private readonly routes: Route[];
  private readonly ajv: Ajv2020;
  private readonly body: ValidateFunction;
  private readonly checkout = new CheckoutRequestValidator();
  readonly disputes = new DisputeRequestValidator();

  constructor(strict = true) {
    const cloud = adyenFile(FIXTURE.cloudDevice);
    const terminal = adyenFile(FIXTURE.terminalApi);
    if (strict) closeObjects(terminal.components.schemas);
    this.ajv = adyenAjv();
    this.ajv.addSchema({ $id: TERMINAL_ID, components: terminal.components });
    this.routes = routesOf(cloud);
    // The library's CloudDeviceApiRequest: the Terminal API message under SaleToPOIRequest, nothing else.
    this.body = this.ajv.compile({
      type: 'object',
      required: ['SaleToPOIRequest'],
      properties: { SaleToPOIRequest: { $ref: `${TERMINAL_ID}#/components/schemas/SaleToPOIRequest` } },
      additionalProperties: false,
    });
  }

  check(req: IncomingRequest): CheckedRequest {
    const url = new URL(req.url, 'http://stand-in');
    if (this.checkout.owns(url.pathname)) return this.checkout.check(req);
    if (this.disputes.owns(url.pathname)) return this.disputes.check(req);
    const errors: string[] = [];
    const byPath = this.routes.filter((r) => r.pattern.test(url.pathname));
    const route = byPath.find((r) => r.method === req.method);
    if (!route) {
      errors.push(byPath.length ? `${req.method} is not allowed on ${url.pathname}` : `no such path in CloudDeviceService-v1.json: ${url.pathname}`);
      return { operation: null, params: {}, errors };
    }
    const match = route.pattern.exec(url.pathname)!;
    const params = Object.fromEntries(route.names.map((n, i) => [n, decodeURIComponent(match[i + 1])]));
    this.checkParameters(route, params, url.searchParams, req.headers, errors);
    if (!header(req.headers, 'x-api-key')) errors.push('header X-API-Key is missing (the cloud device API takes an API key)');
    if (!route.hasBody) {
      if (req.rawBody.length) errors.push(`${route.operation} takes no body`);
      return { operation: route.operation, params, errors };
    }
    const body = jsonBodyOf(req, errors) as any;
    if (body === undefined) return { operation: route.operation, params, errors };
    if (!this.body(body)) errors.push(...describe('body', this.body.errors));
    if (typeof body?.SaleToPOIRequest?.MessageHeader === 'object') errors.push(...checkMessage(body.SaleToPOIRequest, params.deviceId));
    return { operation: route.operation, params, body, errors };
  }

  private checkParameters(route: Route, params: Record<string, string>, query: URLSearchParams, headers: IncomingRequest['headers'], errors: string[]) {
    const known = new Set(route.parameters.filter((p) => p.in === 'query').map((p) => p.name));
    for (const name of query.keys()) if (!known.has(name)) errors.push(`query parameter ${name} is not in the document`);
    for (const p of route.parameters) {
      const value =
        p.in === 'path' ? params[p.name] : p.in === 'query' ? (query.get(p.name) ?? undefined) : p.in === 'header' ? header(headers, p.name) : undefined;
      if (value === undefined || value === '') {
        if (p.required) errors.push(`${p.in} parameter ${p.name} is required`);
        continue;
      }
      const validate = this.ajv.compile(p.schema);
      if (!validate(value)) errors.push(...describe(`${p.in} parameter ${p.name}`, validate.errors));
    }
  }
}

/**
 * What the schema cannot say but the documents' descriptions do: one message body, named after
 * the header's MessageCategory; a request of the Service class carries a ServiceID; the device in
 * the path is the header's POIID ("Must be the same as the POIID in the MessageHeader").
 */
function checkMessage(message: any, deviceId: string | undefined): string[] {
  const errors: string[] = [];
  const header = message.MessageHeader ?? {};
  const bodies = Object.keys(message).filter((k) => k !== 'MessageHeader');
  if (bodies.length !== 1) errors.push(`body SaleToPOIRequest must hold exactly one message, holds ${bodies.length ? bodies.join(', ') : 'none'}`);
  else if (bodies[0].replace(/Request$/, '') !== header.MessageCategory)
    errors.push(`body MessageHeader.MessageCategory ${header.MessageCategory} does not name the message ${bodies[0]}`);
  if (header.MessageType !== 'Request') errors.push(`body MessageHeader.MessageType must be Request, is ${header.MessageType}`);
  if (header.MessageClass === 'Service' && !header.ServiceID) errors.push('body MessageHeader.ServiceID is required for a Service message');
  if (deviceId !== undefined && header.POIID !== deviceId) errors.push(`body MessageHeader.POIID ${header.POIID} is not the path's deviceId ${deviceId}`);
  return errors;
}
