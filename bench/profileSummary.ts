/**
 * `npx tsx bench/profileSummary.ts FILE.cpuprofile...`: summarises V8 CPU profiles (node
 * --cpu-prof) as Markdown tables: where the time goes by package or own directory (self time),
 * the hottest functions (self time), and by request type, each sample given to the nearest frame
 * of our own code on its stack (an approximation: after an await the stack starts afresh).
 */
import fs from 'node:fs';
import path from 'node:path';

interface Frame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const ROOT = path.resolve(__dirname, '..');

function shortUrl(url: string): string {
  const file = url.replace(/^file:\/\//, '');
  const nm = file.lastIndexOf('node_modules/');
  if (nm >= 0) return file.slice(nm + 'node_modules/'.length);
  return file.startsWith(ROOT) ? file.slice(ROOT.length + 1) : file;
}

/** A package (node_modules), our own top directory, Node's internals, or V8's pseudo-frames. */
export function area(frame: Frame): string {
  if (!frame.url) return frame.functionName.startsWith('(') ? frame.functionName : '(native)';
  if (frame.url.startsWith('node:')) return 'node internals';
  if (/workflow-bundle-[0-9a-f]+\.js/.test(frame.url)) return 'workflow bundle (workflow code and the SDK inside the sandbox)';
  const s = shortUrl(frame.url);
  if (frame.url.includes('node_modules/')) {
    const parts = s.split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const parts = s.split('/');
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

const OWN = /^(src|activities|workflows)\//;

/** The request type of our own file, for the per-request table. */
function requestType(file: string): string {
  if (file.startsWith('src/acquirer/sandbox/')) return 'sandbox acquirer (its HTTP calls and state file)';
  if (file.startsWith('src/acquirer/')) return 'acquirer client (service side)';
  if (/^src\/http\/routes\/acquirerNotifications/.test(file)) return 'acquirer notifications (API)';
  if (/^src\/(http\/routes\/payments|payments\/(createPayment|operations|workflowCalls|workflowStart|record|coalesce))/.test(file))
    return 'payment requests: create, sync-status (API)';
  if (file.startsWith('src/http/') || file.startsWith('src/auth/')) return 'API middleware (auth, rate limit, routing, errors)';
  if (file.startsWith('activities/payments/') || file.startsWith('src/payments/')) return 'payment activities (projection, acquirer calls)';
  if (file.startsWith('activities/webhooks/') || file.startsWith('src/webhooks/')) return 'webhook publishing and delivery';
  if (file.startsWith('workflows/')) return 'workflow code';
  if (file.startsWith('src/db/')) return 'database client set-up';
  return `other own code (${file.split('/').slice(0, 2).join('/')})`;
}

/**
 * A part of the profile, in microseconds of the monotonic clock, which V8 uses for a profile's
 * times and process.hrtime reads in any process of the machine (Linux).
 */
export interface ProfileWindow {
  fromUs: number;
  toUs: number;
  label: string;
}

export const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

export function summarise(file: string, window?: ProfileWindow): string {
  const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  if (window) {
    // keep only the samples taken inside the window (sample times are startTime plus the deltas so far)
    const from = window.fromUs;
    const to = window.toUs;
    let t = p.startTime;
    const keep: number[] = [];
    const deltas: number[] = [];
    p.samples.forEach((id, i) => {
      t += p.timeDeltas[i] ?? 0;
      if (t >= from && t <= to) {
        keep.push(id);
        deltas.push(p.timeDeltas[i] ?? 0);
      }
    });
    p.samples = keep;
    p.timeDeltas = deltas;
    p.startTime = Math.max(p.startTime, from);
    p.endTime = Math.min(p.endTime, to);
  }
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<number, number>();
  p.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const idle = [...self].filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)').reduce((a, [, t]) => a + t, 0);
  const busy = total - idle;

  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  const byArea = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const byRequest = new Map<string, number>();
  for (const [id, t] of self) {
    const node = byId.get(id)!;
    const f = node.callFrame;
    if (f.functionName === '(idle)') continue;
    add(byArea, area(f), t);
    add(byFunction, `${f.functionName || '(anonymous)'} ${f.url ? `${shortUrl(f.url)}:${f.lineNumber + 1}` : ''}`.trim(), t);
    let at: number | undefined = id;
    let type = 'no own frame on the stack (Temporal SDK, Node, GC, timers)';
    while (at !== undefined) {
      const fr = byId.get(at)!.callFrame;
      const s = fr.url ? shortUrl(fr.url) : '';
      if (fr.url && !fr.url.includes('node_modules/') && OWN.test(s)) {
        type = requestType(s);
        break;
      }
      at = parent.get(at);
    }
    add(byRequest, type, t);
  }
  const table = (title: string, m: Map<string, number>, n: number): string => {
    const rows = [...m].sort((a, b) => b[1] - a[1]).slice(0, n);
    return [
      `| ${title} | ms | share of busy |`,
      '| --- | ---: | ---: |',
      ...rows.map(([k, v]) => `| ${k.replace(/\|/g, '\\|')} | ${Math.round(v)} | ${((v / busy) * 100).toFixed(1)} % |`),
    ].join('\n');
  };
  const wall = (p.endTime - p.startTime) / 1000;
  return [
    `### ${path.basename(file)}${window ? ` (${window.label})` : ''}`,
    '',
    `Wall ${Math.round(wall)} ms, samples ${p.samples.length}, busy ${Math.round(busy)} ms (${((busy / wall) * 100).toFixed(0)} % of one core), idle ${Math.round(idle)} ms.`,
    '',
    table('by request type (nearest own frame)', byRequest, 15),
    '',
    table('by package or own directory (self time)', byArea, 15),
    '',
    table('function (self time)', byFunction, 25),
    '',
  ].join('\n');
}

if (require.main === module) {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error('usage: tsx bench/profileSummary.ts FILE.cpuprofile...');
    process.exit(2);
  }
  for (const f of files) console.log(summarise(f));
}
