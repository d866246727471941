/**
 * The memory mode (`--hold N`): N payments captured and left open inside their void window (each
 * a running workflow with a timer), created by the cashiers as fast as the service takes them;
 * then the service process's resident memory, read from its own GET /metrics
 * (process_resident_memory_bytes: API, worker and sandbox share that process), and the number of
 * payment workflows the server counts running.
 */
import { Client, Connection } from '@temporalio/client';
import { request } from '../support/http';
import type { RunningStack } from '../support/serviceStack';
import type { Shop, Till } from '../support/shop';

async function rssMiB(metricsUrl: string | undefined): Promise<number | null> {
  if (!metricsUrl) return null;
  const res = await request('GET', metricsUrl);
  const m = typeof res.body === 'string' ? /^process_resident_memory_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)/m.exec(res.body) : null;
  return m ? Math.round(Number(m[1]) / 2 ** 20) : null;
}

export async function holdOpenPayments(opts: {
  stack: RunningStack;
  shop: Shop;
  count: number;
  cashiers: number;
  create: (till: Till) => Promise<{ pspReference: string }>;
  pay: (till: Till) => Promise<void>;
  /** Resolves true once PAYMENT_CAPTURED of that payment arrived (its bill is then off the terminal in the service too). */
  captured: (pspReference: string, timeoutMs: number) => Promise<boolean>;
  /** After the lifecycles: this many more open payments started from rows (bench/holdRows.ts). */
  more?: () => Promise<{ requested: number; started: number; errors: number }>;
}) {
  const { stack, shop, count } = opts;
  const rssBefore = await rssMiB(stack.metricsUrl);
  let n = 0;
  let made = 0;
  let errors = 0;
  let lastReported = 0;
  /** The service's RSS every 500 open payments: the growth per payment, and whether the workflow cache caps it. */
  const curve: { captured: number; seconds: number; serviceRssMiB: number | null }[] = [];
  const started = performance.now();
  await Promise.all(
    shop.tills.map(async (till) => {
      while (n < count) {
        n++;
        try {
          const created = await opts.create(till);
          await opts.pay(till);
          // the till takes the next payment once the service has this one CAPTURED (one open bill per terminal)
          if (!(await opts.captured(created.pspReference, 60_000))) throw new Error(`no PAYMENT_CAPTURED within 60 s for ${created.pspReference}`);
          made++;
        } catch (err) {
          errors++;
          if (errors <= 5) console.error(`hold: ${String(err)}`);
          await new Promise((r) => setTimeout(r, 500));
        }
        if (made % 500 === 0 && made && made !== lastReported) {
          lastReported = made;
          const rss = await rssMiB(stack.metricsUrl).catch(() => null);
          const seconds = Math.round((performance.now() - started) / 1000);
          curve.push({ captured: made, seconds, serviceRssMiB: rss });
          console.log(`hold: ${made} payments captured in ${seconds} s, service RSS ${rss ?? '?'} MiB`);
        }
      }
    }),
  );
  const createSeconds = Math.round((performance.now() - started) / 1000);
  const rssAfterLifecycles = await rssMiB(stack.metricsUrl);
  const fromRows = opts.more ? await opts.more() : null;
  await new Promise((r) => setTimeout(r, 10_000)); // let webhooks and projections settle
  const connection = await Connection.connect({ address: stack.temporalAddress });
  let running: number | null = null;
  try {
    running = (await new Client({ connection }).workflow.count(`WorkflowType = 'paymentWorkflow' AND ExecutionStatus = 'Running'`)).count;
  } finally {
    await connection.close();
  }
  if (typeof global.gc === 'function') global.gc();
  return {
    requested: count,
    captured: made,
    errors,
    createSeconds,
    paymentWorkflowsRunning: running,
    serviceRssBeforeMiB: rssBefore,
    serviceRssAfterLifecyclesMiB: rssAfterLifecycles,
    startedFromRows: fromRows?.started ?? 0,
    startedFromRowsErrors: fromRows?.errors ?? 0,
    serviceRssMiB: await rssMiB(stack.metricsUrl),
    curve,
  };
}
