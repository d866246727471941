// Copies Stripe's own example objects and status lists out of stripe-mock's embedded OpenAPI
// description (fixtures3.json, spec3.json) into test/acquirer/stripe/stripe-examples.json, which the
// mapping's unit tests read. Run after moving STRIPE_MOCK_MODULE (scripts/install-stripe-mock.mjs)
// to a new version; the module is fetched through the Go module proxy by `go mod download`.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { STRIPE_MOCK_MODULE } from './install-stripe-mock.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const info = JSON.parse(execFileSync('go', ['mod', 'download', '-json', STRIPE_MOCK_MODULE], { encoding: 'utf8', cwd: fs.mkdtempSync('/tmp/stripe-mock-') }));
const dir = path.join(info.Dir, 'embedded', 'openapi');
const fixtures = JSON.parse(fs.readFileSync(path.join(dir, 'fixtures3.json'), 'utf8')).resources;
const spec = JSON.parse(fs.readFileSync(path.join(dir, 'spec3.json'), 'utf8'));
const schemas = spec.components.schemas;
const out = {
  _source: `stripe-mock ${STRIPE_MOCK_MODULE.split('@')[1]} (github.com/stripe/stripe-mock, embedded/openapi): fixtures3.json example objects and spec3.json status enums, API version ${spec.info.version}. Regenerate with scripts/extract-stripe-fixtures.mjs.`,
  objects: Object.fromEntries(
    ['payment_intent', 'terminal.reader', 'refund', 'charge', 'balance_transaction', 'payout', 'dispute'].map((k) => [k, fixtures[k]]),
  ),
  enums: {
    payment_intent_status: schemas.payment_intent.properties.status.enum,
    reader_action_status: schemas.terminal_reader_reader_resource_reader_action.properties.status.enum,
    // The refund's status is documented in prose only; the test checks each is named there.
    refund_status: ['pending', 'requires_action', 'succeeded', 'failed', 'canceled'],
    refund_status_description: schemas.refund.properties.status.description,
    dispute_status: schemas.dispute.properties.status.enum,
    // The reason is documented in prose only ("Possible values are `a`, `b`, ..."): read from it.
    dispute_reason: [...schemas.dispute.properties.reason.description.split('Learn more')[0].matchAll(/`([a-z_]+)`/g)].map((m) => m[1]),
    // The payout's status is documented in prose only ("`paid`, `pending`, ..."): read from its first sentence.
    payout_status: [...schemas.payout.properties.status.description.split('.')[0].matchAll(/`([a-z_]+)`/g)].map((m) => m[1]),
  },
};
fs.writeFileSync(path.join(root, 'test/acquirer/stripe/stripe-examples.json'), `${JSON.stringify(out, null, 2)}\n`);
console.log('wrote test/acquirer/stripe/stripe-examples.json');
