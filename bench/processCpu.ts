/**
 * CPU time per role of the stack, read from /proc (Linux): every process the bench started (and
 * their descendants) plus outside roots (a PostgreSQL server started by scripts/with-postgres.sh),
 * each given the role of the process it belongs to: the Temporal server and the database by their
 * command line, anything else by the nearest ancestor the bench named (api, worker, sandbox, ...).
 * The bench process itself (the load) is not counted. A count that does not depend on how busy the
 * machine is: CPU milliseconds spent, divided by the lifecycles of the same window. Elsewhere than
 * Linux: null.
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
    // after "pid (comm) ": state ppid ... utime, stime, cutime, cstime are fields 14 to 17 of the
    // whole line; the last two hold the children that have exited (PostgreSQL's backends of
    // closed connections), which would else be lost between two readings
    const ppid = Number(fields[1]);
    const cpuMs = (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * TICK_MS;
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    return { pid, ppid, cpuMs, cmdline };
  } catch {
    return null;
  }
}

/** The role a process has whoever started it: the Temporal server or the database. */
function fixedRole(cmdline: string): string | null {
  if (/temporal.*(start-dev|server start)|temporal-server/.test(cmdline)) return 'temporal';
  if (/pglite|embedded/i.test(cmdline) || /^postgres/.test(cmdline) || /\/postgres\s/.test(cmdline)) return 'database';
  return null;
}

function allProcesses(): ProcInfo[] {
  return fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => read(Number(d)))
    .filter((p): p is ProcInfo => p !== null);
}

/** The PostgreSQL server listening on the port of `databaseUrl` (its postmaster), when it runs on this machine. */
export function postmasterOf(databaseUrl: string): number | undefined {
  const port = /:(\d+)\//.exec(databaseUrl)?.[1];
  if (!port || !fs.existsSync('/proc/self/stat')) return undefined;
  return allProcesses().find((p) => /postgres/.test(p.cmdline) && new RegExp(`-p ${port}\\b`).test(p.cmdline))?.pid;
}

/**
 * CPU ms by role over the descendants of this process and of `extraRoots`. `named` gives the role
 * of the processes the bench started (the role passes to their descendants but the fixed ones).
 */
export function cpuByRole(named: Map<number, string>, extraRoots: number[] = []): Record<string, number> | null {
  if (!fs.existsSync('/proc/self/stat')) return null;
  const all = allProcesses();
  const children = new Map<number, ProcInfo[]>();
  for (const p of all) (children.get(p.ppid) ?? children.set(p.ppid, []).get(p.ppid)!).push(p);
  const out: Record<string, number> = {};
  const stack: { p: ProcInfo; inherited: string | null }[] = [];
  const self = all.find((p) => p.pid === process.pid);
  if (self) stack.push({ p: self, inherited: null });
  for (const pid of extraRoots) {
    const p = all.find((q) => q.pid === pid);
    if (p) stack.push({ p, inherited: null });
  }
  const seen = new Set<number>();
  while (stack.length) {
    const { p, inherited } = stack.pop()!;
    if (seen.has(p.pid)) continue;
    seen.add(p.pid);
    const role = fixedRole(p.cmdline) ?? named.get(p.pid) ?? inherited;
    if (role && p.pid !== process.pid) out[role] = (out[role] ?? 0) + p.cpuMs;
    for (const c of children.get(p.pid) ?? []) stack.push({ p: c, inherited: role });
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
