/**
 * CPU time per process of the stack, read from /proc (Linux): the service process, the Temporal
 * dev server and the embedded database, found as descendants of the process the bench started.
 * A count that does not depend on how busy the machine is: CPU milliseconds spent, divided by the
 * lifecycles of the same window. Elsewhere than Linux: null.
 */
import fs from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

interface ProcInfo {
  pid: number;
  ppid: number;
  cpuMs: number;
  cmdline: string;
}

function read(pid: number): ProcInfo | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // after "pid (comm) ": state ppid ... utime is field 14 and stime 15 of the whole line
    const ppid = Number(fields[1]);
    const cpuMs = (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    return { pid, ppid, cpuMs, cmdline };
  } catch {
    return null;
  }
}

function role(cmdline: string): string {
  if (/temporal.*start-dev/.test(cmdline)) return 'temporal dev server';
  if (/src\/main\.ts/.test(cmdline)) return 'service (API, worker, sandbox)';
  if (/pglite|embedded/i.test(cmdline)) return 'embedded database';
  if (/postgres/.test(cmdline)) return 'postgresql';
  return cmdline.split(' ')[0]!.split('/').pop() ?? 'other';
}

/** CPU ms by role, over the process tree under rootPid. */
export function cpuByRole(rootPid: number | undefined): Record<string, number> | null {
  if (!rootPid || !fs.existsSync('/proc/self/stat')) return null;
  const all = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => read(Number(d)))
    .filter((p): p is ProcInfo => p !== null);
  const children = new Map<number, ProcInfo[]>();
  for (const p of all) (children.get(p.ppid) ?? children.set(p.ppid, []).get(p.ppid)!).push(p);
  const out: Record<string, number> = {};
  const root = all.find((p) => p.pid === rootPid);
  const stack = root ? [root] : [];
  while (stack.length) {
    const p = stack.pop()!;
    const r = role(p.cmdline);
    out[r] = (out[r] ?? 0) + p.cpuMs;
    stack.push(...(children.get(p.pid) ?? []));
  }
  return out;
}

/** The CPU ms each role spent between two readings, per lifecycle. */
export function cpuPerLifecycle(
  before: Record<string, number> | null,
  after: Record<string, number> | null,
  lifecycles: number,
): Record<string, number> | null {
  if (!before || !after || lifecycles === 0) return null;
  const out: Record<string, number> = {};
  for (const [r, ms] of Object.entries(after)) out[r] = Math.round(((ms - (before[r] ?? 0)) / lifecycles) * 10) / 10;
  return out;
}
