import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { apiDocument } from '../../src/http/apiDocument';
import { tsxNodeArgs } from '../../src/process/tsx';

/**
 * Every operation of the API description (README, "API reference") has a unique lowerCamelCase operationId of
 * a verb and a resource, the name a generated client gives its function; and the document passes
 * Redocly's linter with zero errors.
 */
const VERBS = [
  'get',
  'list',
  'search',
  'create',
  'update',
  'replace',
  'delete',
  'revoke',
  'disable',
  'rotate',
  'regenerate',
  'reset',
  'unlock',
  'start',
  'verify',
  'send',
  'redeliver',
  'sync',
  'cancel',
  'capture',
  'void',
  'close',
  'export',
  'receive',
  // a dispute's answers (README, "Disputes")
  'submit',
  'accept',
];

const operations = (): { method: string; path: string; operationId?: string }[] =>
  Object.entries(apiDocument().paths as Record<string, Record<string, { operationId?: string }>>).flatMap(([p, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ method, path: p, operationId: op.operationId })),
  );

it('every operation has an operationId: unique, lowerCamelCase, a verb then a resource', () => {
  const all = operations();
  expect(all.length).toBeGreaterThan(80);
  expect(all.filter((o) => !o.operationId)).toEqual([]);
  const ids = all.map((o) => o.operationId!);
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  for (const id of ids) {
    expect(id).toMatch(/^[a-z]+(?:[A-Z][a-z0-9]*)+$/);
    expect(VERBS).toContain(id.match(/^[a-z]+/)![0]);
  }
  // The names the README gives as examples, and both mounts of a shared declaration.
  const byRoute = Object.fromEntries(all.map((o) => [`${o.method} ${o.path}`, o.operationId]));
  expect(byRoute['post /api/in-store/payments']).toBe('createPayment');
  expect(byRoute['post /api/in-store/payments/{id}/sync-status']).toBe('syncPaymentStatus');
  expect(byRoute['get /api/transactions']).toBe('listTransactions');
  expect(byRoute['post /api/dashboard/payments/{paymentId}/refunds']).toBe('createRefund');
  expect(byRoute['get /api/dashboard/disputes']).toBe('listDisputes');
  expect(byRoute['put /api/dashboard/disputes/{id}/evidence']).toBe('updateDisputeEvidence');
  expect(byRoute['post /api/dashboard/disputes/{id}/submit']).toBe('submitDispute');
  expect(byRoute['post /api/dashboard/disputes/{id}/accept']).toBe('acceptDispute');
  expect(byRoute['get /api/webhooks/configs']).toBe('listWebhookConfigs');
  expect(byRoute['get /api/dashboard/webhooks/configs']).toBe('listDashboardWebhookConfigs');
});

it('documents what a generated client needs to type: the refund Idempotency-Key header, page and size as integers', () => {
  const paths = apiDocument().paths as Record<string, Record<string, { parameters?: { name: string; in: string; schema: { type?: string } }[] }>>;
  const refund = paths['/api/dashboard/payments/{paymentId}/refunds']!.post!.parameters!;
  expect(refund.find((p) => p.in === 'header' && p.name === 'Idempotency-Key')).toBeDefined();
  const stores = paths['/api/dashboard/stores']!.get!.parameters!;
  for (const name of ['page', 'size']) expect(stores.find((p) => p.in === 'query' && p.name === name)?.schema.type).toBe('integer');
});

it("passes Redocly's linter with zero errors", () => {
  const root = path.resolve(__dirname, '../..');
  let out: string;
  try {
    out = execFileSync(process.execPath, tsxNodeArgs(path.join(root, 'scripts/openapi/lint.ts')), { cwd: root, encoding: 'utf8', timeout: 60_000 });
  } catch (err) {
    throw new Error(`the linter found errors:\n${(err as { stdout?: string }).stdout ?? err}`);
  }
  const summary = JSON.parse(out.trim().split('\n').at(-1)!) as { errors: number; warnings: number };
  expect(summary.errors).toBe(0);
});
