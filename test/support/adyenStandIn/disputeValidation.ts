import type { ValidateFunction } from 'ajv/dist/2020';
import { adyenFile, FIXTURE } from './fixtures';
import { adyenAjv, describeErrors, headerOf as header, jsonBodyOf } from './schemaCheck';

/**
 * Checks the Disputes API calls against Adyen's document (DisputeService-v30.json, the version
 * @adyen/api-library's DisputesAPI sends, under https://ca-test.adyen.com/ca/services/DisputeService/v30):
 * the path, the method (POST), the API key, and the body against the operation's request schema,
 * closed to the properties the document names so that a misspelt field is caught.
 */
export const DISPUTE_OPERATIONS = [
  'acceptDispute',
  'defendDispute',
  'deleteDisputeDefenseDocument',
  'retrieveApplicableDefenseReasons',
  'supplyDefenseDocument',
] as const;
export type DisputeOperation = (typeof DISPUTE_OPERATIONS)[number];

const DISPUTES_ID = 'adyen:DisputeService-v30';

export interface CheckedDisputeRequest {
  operation: DisputeOperation | null;
  params: Record<string, string>;
  body?: any;
  errors: string[];
}

export class DisputeRequestValidator {
  private readonly prefix: string;
  private readonly bodies = new Map<string, ValidateFunction>();
  /** Each operation's example answer (`...-200`), as Adyen's document gives it. */
  readonly examples = new Map<string, any>();

  constructor() {
    const doc = adyenFile(FIXTURE.disputes);
    this.prefix = new URL(doc.servers[0].url).pathname.replace(/\/$/, ''); // '/ca/services/DisputeService/v30'
    for (const schema of Object.values<any>(doc.components.schemas))
      if (schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
    const ajv = adyenAjv();
    ajv.addSchema({ $id: DISPUTES_ID, components: doc.components });
    for (const [template, item] of Object.entries<any>(doc.paths)) {
      const operation = template.slice(1);
      this.bodies.set(operation, ajv.compile({ $ref: `${DISPUTES_ID}${item.post.requestBody.content['application/json'].schema.$ref}` }));
      const answers = item.post.responses['200'].content['application/json'].examples;
      const ref = (Object.values<any>(answers)[0].$ref as string).split('/').pop()!;
      this.examples.set(operation, doc.components.examples[ref].value);
    }
  }

  owns(pathname: string): boolean {
    return pathname.startsWith(`${this.prefix}/`);
  }

  check(req: { method: string; url: string; headers: Record<string, string | string[] | undefined>; rawBody: string }): CheckedDisputeRequest {
    const url = new URL(req.url, 'http://stand-in');
    const operation = url.pathname.slice(this.prefix.length + 1);
    const validate = this.bodies.get(operation);
    if (!validate) return { operation: null, params: {}, errors: [`no such path in DisputeService-v30.json: ${url.pathname}`] };
    const errors: string[] = [];
    if (req.method !== 'POST') errors.push(`${req.method} is not allowed on ${url.pathname}`);
    for (const name of url.searchParams.keys()) errors.push(`query parameter ${name} is not in the document`);
    // The document's security: ApiKeyAuth (X-API-Key) or BasicAuth; the adapter uses the key.
    if (!header(req.headers, 'x-api-key') && !/^Basic /.test(header(req.headers, 'authorization') ?? ''))
      errors.push('header X-API-Key is missing (the Disputes API takes an API key or basic auth)');
    const body = jsonBodyOf(req, errors) as any;
    if (body === undefined) return { operation: operation as DisputeOperation, params: {}, errors };
    if (!validate(body)) errors.push(...describeErrors('body', validate.errors));
    for (const [i, d] of (Array.isArray(body?.defenseDocuments) ? body.defenseDocuments : []).entries()) {
      // `format: byte`: base64.
      if (typeof d?.content === 'string' && !/^[A-Za-z0-9+/]*={0,2}$/.test(d.content)) errors.push(`body/defenseDocuments/${i}/content is not base64`);
    }
    return { operation: operation as DisputeOperation, params: { merchantAccount: body?.merchantAccountCode }, body, errors };
  }
}
