/**
 * OTEL_ENABLED=true: spans of the API's calls to Temporal, of workflows and of activities reach
 * an OTLP/HTTP collector (a loopback receiver here).
 */
import http from 'node:http';
import { freePort } from '../../src/process/freePort';
import { createMerchantWithKey } from '../support/fixtures';
import { call } from '../support/http';
import { startTestStack, type TestStack } from '../support/stack';

let stack: TestStack;
let collector: http.Server;
const spanNames = new Set<string>();

beforeAll(async () => {
  const port = await freePort();
  collector = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const body = JSON.parse(Buffer.concat(chunks).toString());
        for (const rs of body.resourceSpans ?? []) for (const ss of rs.scopeSpans ?? []) for (const s of ss.spans ?? []) spanNames.add(s.name);
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => collector.listen(port, '127.0.0.1', r));
  stack = await startTestStack({ OTEL_ENABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}` });
});
afterAll(async () => {
  await stack?.stop();
  collector?.close();
});

it('exports spans of the client, the workflow and its activities', async () => {
  const { key } = await createMerchantWithKey(stack.db);
  const receiverPort = await freePort();
  const receiver = http.createServer((_req, res) => res.writeHead(204).end());
  await new Promise<void>((r) => receiver.listen(receiverPort, '127.0.0.1', r));
  try {
    const config = await call(stack.apiUrl, 'POST', '/api/webhooks/configs', { key, body: { url: `http://127.0.0.1:${receiverPort}/hook` } });
    expect(config.status).toBe(201);
    const sent = await call(stack.apiUrl, 'POST', `/api/webhooks/configs/${config.body.id}/test`, { key });
    expect(sent.status).toBeLessThan(300);
    const deadline = Date.now() + 20_000;
    const wanted = () =>
      [...spanNames].some((n) => n.startsWith('StartWorkflow:')) &&
      [...spanNames].some((n) => n.startsWith('RunWorkflow:')) &&
      [...spanNames].some((n) => n.startsWith('RunActivity:'));
    while (!wanted() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    expect([...spanNames].join(' ')).toMatch(/StartWorkflow:/);
    expect([...spanNames].join(' ')).toMatch(/RunWorkflow:/);
    expect([...spanNames].join(' ')).toMatch(/RunActivity:/);
    // the delivery outcome is counted in the Prometheus metrics
    const metrics = await (await fetch(stack.metricsUrl!)).text();
    expect(metrics).toMatch(/isp_webhook_delivery_attempts_total\{outcome="delivered"\} [1-9]/);
  } finally {
    receiver.close();
  }
});
