import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Modifications } from './modifications';
import type { Disputes } from './disputes';
import { DISPUTE_OPERATIONS, type DisputeOperation } from './disputeValidation';
import type { Notifier } from './notifications';
import { paymentsAccountingReport, type ReportPath, reportPathOf, reportToday } from './reports';
import type { Terminals } from './terminals';
import type { AdyenOperation, AdyenRequestValidator } from './validation';

/**
 * The stand-in's HTTP side: every request is recorded and validated; one that does not validate
 * is refused as Adyen refuses (RFC 7807 body) and kept in `invalid`; the rest reach the simulated
 * terminals. The network's failures are played here: a dropped connection before anything
 * happens (unreachable) or after the terminal acted (a lost answer).
 */
export interface RecordedAdyenRequest {
  method: string;
  path: string;
  operation: AdyenOperation | 'reportDownload' | null;
  merchantAccount?: string;
  deviceId?: string;
  /** A Checkout modification's payment (its path) and Idempotency-Key. */
  paymentPspReference?: string;
  idempotencyKey?: string;
  /** The X-API-Key it came with: which account's credentials were used. */
  apiKey?: string;
  /** The parsed JSON body, when it is JSON. */
  body?: any;
  rawBody: string;
  valid: boolean;
  errors: string[];
  /** answered; refused (invalid); lost (processed, connection dropped); dropped (unreachable, not processed). */
  outcome: 'pending' | 'answered' | 'refused' | 'lost' | 'dropped';
  status?: number;
  answer?: any;
  /** A repeat (same SaleID/ServiceID, or a modification's same Idempotency-Key) that got the first one's answer. */
  repeated?: boolean;
}

export interface HandlerDeps {
  validator: AdyenRequestValidator;
  terminals: Terminals;
  notifier: Notifier;
  requests: RecordedAdyenRequest[];
  invalid: RecordedAdyenRequest[];
  /** When set, only these API keys are accepted (401 otherwise). */
  apiKeys?: string[];
  modifications: Modifications;
  disputes: Disputes;
  /** The network's failure for the next modification call: dropped unprocessed, or processed and its answer lost. */
  faults: { nextModification: 'dropped' | 'lost' | null; times: number };
  /** While true, report downloads get no answer (the connection drops). */
  reports: { unreachable: boolean };
}

const problem = (status: number, title: string, detail: string) => ({
  type: `https://docs.adyen.com/errors/${status === 401 ? 'unauthorized' : status === 404 ? 'not-found' : 'validation'}`,
  title,
  status,
  errorCode: `00_${status}`,
  detail,
});

export function adyenHandler(deps: HandlerDeps) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => void serve(deps, req, res, Buffer.concat(chunks).toString('utf8')));
  };
}

async function serve(deps: HandlerDeps, req: IncomingMessage, res: ServerResponse, rawBody: string) {
  const report = reportPathOf(req.method ?? 'GET', new URL(req.url ?? '/', 'http://stand-in').pathname, rawBody);
  if (report) return serveReport(deps, req, res, rawBody, report);
  const checked = deps.validator.check({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, rawBody });
  const apiKey = req.headers['x-api-key'] as string | undefined;
  if (apiKey && deps.apiKeys && !deps.apiKeys.includes(apiKey)) checked.errors.push('header X-API-Key is not a key of this stand-in');
  const rec: RecordedAdyenRequest = {
    method: req.method ?? 'GET',
    path: new URL(req.url ?? '/', 'http://stand-in').pathname,
    operation: checked.operation,
    merchantAccount: checked.params.merchantAccount ?? checked.body?.merchantAccount,
    deviceId: checked.params.deviceId,
    paymentPspReference: checked.params.paymentPspReference,
    idempotencyKey: checked.idempotencyKey,
    apiKey,
    body: checked.body,
    rawBody,
    valid: checked.errors.length === 0,
    errors: checked.errors,
    outcome: 'pending',
  };
  deps.requests.push(rec);
  if (!rec.valid) deps.invalid.push(rec);

  if (rec.operation === 'captures' || rec.operation === 'cancels') return modify(deps, rec, res);
  if ((DISPUTE_OPERATIONS as readonly string[]).includes(rec.operation ?? '')) return dispute(deps, rec, res);
  const device = rec.deviceId !== undefined ? deps.terminals.device(rec.deviceId) : undefined;
  if (device?.unreachable) return drop(rec, res, 'dropped');
  if (!rec.valid) {
    const auth = rec.errors.some((e) => e.startsWith('header X-API-Key'));
    return send(rec, res, auth ? 401 : 400, problem(auth ? 401 : 400, auth ? 'Unauthorized' : 'Bad Request', rec.errors.join('; ')));
  }
  const wanted = device?.loseNextAnswer ?? false;
  const lose = wanted === true || (typeof wanted === 'string' && rec.body?.SaleToPOIRequest?.[wanted] !== undefined);
  if (device && lose) device.loseNextAnswer = false;
  const reply = (status: number, body: unknown) => (lose ? drop(rec, res, 'lost', body) : send(rec, res, status, body));

  if (rec.operation === 'status') return reply(200, { deviceId: rec.deviceId, status: device!.status });
  if (rec.operation === 'connectedDevices') {
    const online = [...deps.terminals.devices.values()].filter((d) => d.status === 'ONLINE' && !d.unreachable).map((d) => d.poiid);
    return reply(200, { uniqueDeviceIds: online });
  }
  const mode = rec.operation as 'sync' | 'async';
  const handled = deps.terminals.handle(mode, rec.merchantAccount!, rec.deviceId!, rec.body.SaleToPOIRequest, rawBody);
  rec.repeated = handled.repeated;
  if (handled.immediate) return reply(200, handled.immediate);
  if (mode === 'async') {
    // The outcome goes to the event URL when the terminal has it; a repeat posts nothing new.
    if (!handled.repeated) void handled.result.then((doc) => deps.notifier.event(doc));
    return reply(200, 'ok');
  }
  reply(200, await handled.result);
}

/** A Checkout modification: refused in Adyen's ServiceError shape when invalid; else played by ./modifications.ts. */
function modify(deps: HandlerDeps, rec: RecordedAdyenRequest, res: ServerResponse) {
  const fault = deps.faults.nextModification;
  if (--deps.faults.times <= 0) deps.faults.nextModification = null;
  if (fault === 'dropped') return drop(rec, res, 'dropped');
  if (!rec.valid) {
    const auth = rec.errors.some((e) => e.startsWith('header X-API-Key'));
    const body = auth
      ? { status: 401, errorCode: '000', message: 'HTTP Status Response - Unauthorized', errorType: 'security' }
      : { status: 400, errorCode: '702', message: rec.errors.join('; '), errorType: 'validation' };
    return send(rec, res, body.status, body);
  }
  const answer = deps.modifications.handle({
    operation: rec.operation as 'captures' | 'cancels',
    paymentPspReference: rec.paymentPspReference!,
    apiKey: rec.apiKey,
    idempotencyKey: rec.idempotencyKey,
    body: rec.body,
  });
  rec.repeated = answer.repeated;
  if (answer.made) deps.notifier.modification(answer.made.tx, answer.made.modification);
  if (fault === 'lost') return drop(rec, res, 'lost', answer.body);
  send(rec, res, answer.status, answer.body);
}

/** A Disputes API call: refused in Adyen's ServiceError shape when invalid; else played by ./disputes.ts. */
function dispute(deps: HandlerDeps, rec: RecordedAdyenRequest, res: ServerResponse) {
  if (!rec.valid) {
    const auth = rec.errors.some((e) => e.startsWith('header X-API-Key'));
    const body = auth
      ? { status: 401, errorCode: '000', message: 'HTTP Status Response - Unauthorized', errorType: 'security' }
      : { status: 422, errorCode: '702', message: rec.errors.join('; '), errorType: 'validation' };
    return send(rec, res, body.status, body);
  }
  send(rec, res, 200, deps.disputes.handle(rec.operation as DisputeOperation, rec.body));
}

/**
 * A report download (./reports.ts): recorded like every request; a malformed path or a missing or
 * unknown API key is refused and kept in `invalid` (the adapter must never send one); an unknown
 * file or a day not yet reported is 404, as Adyen answers.
 */
function serveReport(deps: HandlerDeps, req: IncomingMessage, res: ServerResponse, rawBody: string, report: ReportPath) {
  const apiKey = req.headers['x-api-key'] as string | undefined;
  const errors = report.kind === 'malformed' ? [report.error] : [];
  if (!apiKey) errors.push('header X-API-Key is missing (report downloads take an API key)');
  else if (deps.apiKeys && !deps.apiKeys.includes(apiKey)) errors.push('header X-API-Key is not a key of this stand-in');
  const rec: RecordedAdyenRequest = {
    method: req.method ?? 'GET',
    path: new URL(req.url ?? '/', 'http://stand-in').pathname,
    operation: 'reportDownload',
    merchantAccount: report.kind === 'malformed' ? undefined : report.merchantAccount,
    apiKey,
    rawBody,
    valid: errors.length === 0,
    errors,
    outcome: 'pending',
  };
  deps.requests.push(rec);
  if (!rec.valid) deps.invalid.push(rec);
  if (deps.reports.unreachable) return drop(rec, res, 'dropped');
  if (report.kind === 'malformed') return send(rec, res, 400, problem(400, 'Bad Request', errors.join('; ')));
  if (!rec.valid) return send(rec, res, 401, problem(401, 'Unauthorized', errors.join('; ')));
  if (report.kind === 'unknown' || report.date > reportToday()) return send(rec, res, 404, problem(404, 'Not Found', `no report ${report.fileName}`));
  send(rec, res, 200, paymentsAccountingReport(deps.terminals.devices.values(), report.merchantAccount, report.date, deps.disputes.all.values()), 'text/csv');
}

function send(rec: RecordedAdyenRequest, res: ServerResponse, status: number, body: unknown, contentType?: string) {
  if (res.destroyed) return; // the client gave up on a held /sync request
  rec.outcome = status < 300 ? 'answered' : 'refused';
  rec.status = status;
  rec.answer = body;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': contentType ?? (typeof body === 'string' ? 'text/plain' : 'application/json'),
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

/** The connection ends without an answer, as when the network fails. */
function drop(rec: RecordedAdyenRequest, res: ServerResponse, outcome: 'lost' | 'dropped', body?: unknown) {
  rec.outcome = outcome;
  rec.answer = body;
  res.socket?.destroy();
}
