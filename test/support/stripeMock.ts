import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { StripeAcquirer } from '../../src/acquirer/stripe/adapter';

/**
 * stripe-mock, Stripe's own mock of its API (it answers every endpoint from Stripe's OpenAPI
 * description and refuses any request that description does not allow), started on a free
 * loopback port for one test file. Built on first use by scripts/install-stripe-mock.mjs.
 */
export interface StripeMock {
  url: string;
  stop(): Promise<void>;
}

export async function startStripeMock(): Promise<StripeMock> {
  const root = path.resolve(__dirname, '../..');
  const out = execFileSync(process.execPath, [path.join(root, 'scripts/install-stripe-mock.mjs')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const binary = /stripe-mock: (\S+)\s*$/.exec(out.trim())?.[1];
  if (!binary) throw new Error(`stripe-mock not installed: ${out}`);
  // Both listeners on ports of their own: stripe-mock opens HTTPS on 12112 unless told otherwise,
  // and a second instance (two test files at once) would exit on that port after printing its HTTP address.
  const child: ChildProcess = spawn(binary, ['-http-addr', '127.0.0.1:0', '-https-addr', '127.0.0.1:0', '-strict-version-check'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const http = /Listening for HTTP at address: (127\.0\.0\.1:\d+)/.exec(seen);
      // Ready once both listeners are up: a listener that cannot bind makes it exit instead.
      if (http && /Listening for HTTPS at address:/.test(seen)) resolve(`http://${http[1]}`);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`stripe-mock exited (${code}) before listening: ${seen}`)));
    child.once('error', reject);
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** One request that reached stripe-mock through the recorder. */
export interface RecordedStripeRequest {
  method: string;
  path: string;
  /** The query string's parameters (GET), in Stripe's bracket notation: `created[gt]`. */
  query: Record<string, string>;
  /** The form-encoded body's parameters (POST), in the same notation: `process_config[enable_customer_cancellation]`. */
  body: Record<string, string>;
  /** The key it was sent with (Authorization: Bearer ...): which account's credentials were used. */
  authorization?: string;
}

/**
 * A loopback recorder in front of stripe-mock: every request is forwarded to stripe-mock (which
 * still accepts or refuses it) and recorded, so a test can assert what the adapter asked Stripe
 * for. `answer` may change a JSON answer (stripe-mock keeps no state: to show a PaymentIntent in
 * another status, say), after stripe-mock accepted the request.
 */
export interface StripeRecorder {
  url: string;
  requests: RecordedStripeRequest[];
  answer: ((req: RecordedStripeRequest, body: any) => any) | null;
  stop(): Promise<void>;
}

export async function startStripeRecorder(target: string): Promise<StripeRecorder> {
  const recorder: StripeRecorder = { url: '', requests: [], answer: null, stop: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://recorder');
      const recorded: RecordedStripeRequest = {
        method: req.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body: Object.fromEntries(new URLSearchParams(raw.toString('utf8'))),
        authorization: req.headers.authorization,
      };
      recorder.requests.push(recorded);
      const headers = { ...req.headers, host: new URL(target).host };
      const upstream = http.request(`${target}${req.url}`, { method: req.method, headers }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () => {
          let out = Buffer.concat(parts);
          const change = recorder.answer;
          if (change && (answer.statusCode ?? 500) < 300) out = Buffer.from(JSON.stringify(change(recorded, JSON.parse(out.toString('utf8')))));
          const outHeaders = { ...answer.headers, 'content-length': String(out.length) };
          delete outHeaders['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, outHeaders);
          res.end(out);
        });
      });
      upstream.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      upstream.end(raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  recorder.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  recorder.stop = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return recorder;
}

/**
 * For an adapter-level test file: stripe-mock behind the recorder (the first run builds
 * stripe-mock), and the Stripe adapter talking to it; each test starts with nothing recorded and
 * no canned answer. `asked()` lists the requests as `METHOD /path`. Filled in before the tests.
 */
export function withStripeAdapter(): { recorder: StripeRecorder; stripe: StripeAcquirer; asked: () => string[] } {
  let mock: StripeMock | undefined;
  const s = { asked: () => s.recorder.requests.map((r) => `${r.method} ${r.path}`) } as {
    recorder: StripeRecorder;
    stripe: StripeAcquirer;
    asked: () => string[];
  };
  beforeAll(async () => {
    mock = await startStripeMock();
    // Every request goes through the recorder to stripe-mock: stripe-mock accepts (or refuses) it,
    // the recorder tells what the adapter asked for.
    s.recorder = await startStripeRecorder(mock.url);
    s.stripe = new StripeAcquirer({ apiKey: 'sk_test_123', apiBase: s.recorder.url });
  }, 900_000);
  afterAll(async () => {
    await s.recorder?.stop();
    await mock?.stop();
  });
  beforeEach(() => {
    s.recorder.requests.length = 0;
    s.recorder.answer = null;
  });
  return s;
}
