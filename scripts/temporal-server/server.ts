/**
 * A real Temporal server (the server's own binary, built by ./build.ts) on PostgreSQL: its schema
 * set up by deploy/temporal-setup.sh, its settings from deploy/temporal-server.env and the dynamic
 * config of deploy/temporal-dynamic-config.yaml, exactly as docker-compose.yml runs it; then the
 * namespace and the payment search attributes. Used by `npm run temporal-server` (./main.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { Connection } from '@temporalio/client';
import { freePort } from '../../src/process/freePort';
import { findTemporalCli } from '../../src/temporal/cliBinary';
import { PAYMENT_SEARCH_ATTRIBUTES } from '../../core/searchAttributes';
import { ensureTemporalServerBuilt, type TemporalServerBinaries } from './build';

const REPO = path.resolve(__dirname, '../..');
export const SETUP_SCRIPT = path.join(REPO, 'deploy/temporal-setup.sh');
export const SERVER_ENV_FILE = path.join(REPO, 'deploy/temporal-server.env');
export const DYNAMIC_CONFIG_FILE = path.join(REPO, 'deploy/temporal-dynamic-config.yaml');

/** The server's ports besides the frontend's gRPC port: names of its configuration template. */
export const INTERNAL_PORTS = [
  'FRONTEND_HTTP_PORT',
  'FRONTEND_MEMBERSHIP_PORT',
  'HISTORY_GRPC_PORT',
  'HISTORY_MEMBERSHIP_PORT',
  'MATCHING_GRPC_PORT',
  'MATCHING_MEMBERSHIP_PORT',
  'WORKER_GRPC_PORT',
  'WORKER_MEMBERSHIP_PORT',
] as const;
export type InternalPort = (typeof INTERNAL_PORTS)[number];

/**
 * A port that was free a moment ago, below 32768: the server records its members' ports in a
 * PostgreSQL smallint column (cluster_membership), so a port of the usual ephemeral range, which
 * the system hands out for port 0, stops it at its start ("out of range for type smallint").
 * freePort's, claimed across processes like every other (src/process/freePort.ts): a node of the
 * fault suite's cluster once found its port taken by a step started beside it.
 */
export async function freeServerPort(host = '127.0.0.1'): Promise<number> {
  const port = await freePort(host);
  if (port > 32_767) throw new Error(`no free port between 20000 and 32767 on ${host}`); // freePort fell back to port 0
  return port;
}

export interface PostgresTarget {
  host: string;
  port: number;
  user: string;
  password: string;
}

export interface TemporalServerSettings {
  /** Address the server listens on and the clients use (a loopback or an interface address). */
  host: string;
  /** The frontend's gRPC port: TEMPORAL_ADDRESS is host:port. */
  port: number;
  namespace: string;
  /** The PostgreSQL server that holds the databases of deploy/temporal-server.env. */
  database: PostgresTarget;
  /** The other ports; free ones where absent. Give them to restart a server where it was. */
  ports?: Partial<Record<InternalPort, number>>;
}

export type Log = (line: string) => void;

/** user, password, host and port of a postgresql:// URL (its database name is not used). */
export function postgresTargetFromUrl(url: string): PostgresTarget {
  const u = new URL(url);
  if (!/^postgres(ql)?:$/.test(u.protocol)) throw new Error(`not a postgresql:// URL: ${u.protocol}`);
  return { host: u.hostname, port: Number(u.port || 5432), user: decodeURIComponent(u.username || 'postgres'), password: decodeURIComponent(u.password) };
}

/** KEY=VALUE lines of deploy/temporal-server.env (compose's env_file format). */
export function readServerEnvFile(file = SERVER_ENV_FILE): Record<string, string> {
  const env: Record<string, string> = {};
  for (const raw of fs.readFileSync(file, 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const eq = line.indexOf('=');
    if (eq > 0) env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return env;
}

/** `Name=Keyword ...`, the setup script's SEARCH_ATTRIBUTES. */
export function searchAttributesSetting(): string {
  return PAYMENT_SEARCH_ATTRIBUTES.map((a) => `${a.name}=Keyword`).join(' ');
}

function pipeLines(child: ChildProcess, log: Log): void {
  for (const stream of [child.stdout, child.stderr]) if (stream) readline.createInterface({ input: stream }).on('line', log);
}

/** Runs a set-up command to its end; rejects with its last lines when it fails. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, log: Log): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const tail: string[] = [];
    pipeLines(child, (line) => {
      tail.push(line);
      if (tail.length > 30) tail.shift();
      log(line);
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(command)} ${args.join(' ')} failed (exit ${code}):\n${tail.join('\n')}`)),
    );
  });
}

const withPath = (dirs: string[]): string => [...dirs, process.env.PATH ?? ''].join(path.delimiter);

export async function setupSchema(bins: TemporalServerBinaries, db: PostgresTarget, log: Log): Promise<void> {
  await run(
    'sh',
    [SETUP_SCRIPT, 'schema'],
    {
      ...process.env,
      ...readServerEnvFile(),
      PATH: withPath([path.dirname(bins.sqlTool)]),
      SQL_HOST: db.host,
      SQL_PORT: String(db.port),
      SQL_USER: db.user,
      SQL_PASSWORD: db.password,
    },
    log,
  );
}

export async function setupNamespace(address: string, namespace: string, log: Log): Promise<void> {
  await run(
    'sh',
    [SETUP_SCRIPT, 'namespace'],
    {
      ...process.env,
      PATH: withPath([path.dirname(findTemporalCli())]),
      TEMPORAL_ADDRESS: address,
      TEMPORAL_NAMESPACE: namespace,
      SEARCH_ATTRIBUTES: searchAttributesSetting(),
    },
    log,
  );
}

/**
 * Resolves once the frontend answers for the namespace and its visibility store knows the payment
 * search attributes (a list query on one of them is accepted); rejects after `timeoutMs`.
 */
export async function waitUntilAnswering(address: string, namespace: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const query = PAYMENT_SEARCH_ATTRIBUTES.map((a) => `${a.name} = 'ready-check'`).join(' AND ');
  let last: unknown;
  const connection = await Connection.connect({ address, connectTimeout: timeoutMs });
  try {
    while (Date.now() < deadline) {
      try {
        await connection.workflowService.describeNamespace({ namespace });
        await connection.workflowService.listWorkflowExecutions({ namespace, query, pageSize: 1 });
        return;
      } catch (err) {
        last = err;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  } finally {
    await connection.close();
  }
  throw new Error(
    `Temporal server at ${address} did not answer for namespace ${namespace} within ${timeoutMs} ms: ${last instanceof Error ? last.message : String(last)}`,
  );
}

export interface RunningTemporalServer {
  address: string;
  process: ChildProcess;
  /** Resolves with the exit code when the server process ends. */
  exited: Promise<number | null>;
  /** SIGTERM (the server shuts down in order), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** The server's environment: deploy/temporal-server.env, the database, the ports, the dynamic config. */
async function serverEnv(settings: TemporalServerSettings): Promise<NodeJS.ProcessEnv> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...readServerEnvFile(),
    POSTGRES_SEEDS: settings.database.host,
    DB_PORT: String(settings.database.port),
    POSTGRES_USER: settings.database.user,
    POSTGRES_PWD: settings.database.password,
    BIND_ON_IP: settings.host,
    FRONTEND_GRPC_PORT: String(settings.port),
    DYNAMIC_CONFIG_FILE_PATH: DYNAMIC_CONFIG_FILE,
  };
  for (const name of INTERNAL_PORTS) env[name] = String(settings.ports?.[name] ?? (await freeServerPort(settings.host)));
  return env;
}

/**
 * Builds the server when needed, sets up its schema, starts it, creates the namespace and the
 * search attributes, and resolves once it answers. The server's own output goes to `log`.
 */
export async function startTemporalServer(settings: TemporalServerSettings, log: Log, opts: { readyTimeoutMs?: number } = {}): Promise<RunningTemporalServer> {
  const bins = await ensureTemporalServerBuilt(log);
  await setupSchema(bins, settings.database, log);
  const address = `${settings.host}:${settings.port}`;
  const child = spawn(bins.server, ['start'], { env: await serverEnv(settings), stdio: ['ignore', 'pipe', 'pipe'] });
  pipeLines(child, log);
  let running = true;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running = false;
      resolve(code);
    }),
  );
  const stop = async (graceMs = 15_000): Promise<void> => {
    if (!running) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(killer);
  };
  try {
    const died = exited.then((code) => {
      throw new Error(`temporal-server exited (code ${code}) while starting`);
    });
    died.catch(() => undefined); // the race below reports it
    await Promise.race([
      (async () => {
        await setupNamespace(address, settings.namespace, log);
        await waitUntilAnswering(address, settings.namespace, opts.readyTimeoutMs ?? 120_000);
      })(),
      died,
    ]);
  } catch (err) {
    await stop(5_000);
    throw err;
  }
  return { address, process: child, exited, stop };
}
