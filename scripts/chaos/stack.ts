import fs from 'node:fs';
import path from 'node:path';
import { migrate } from '../../src/db/migrate';
import { freePort } from '../../src/process/freePort';
import { tsxNodeArgs } from '../../src/process/tsx';
import { findTemporalCli } from '../../src/temporal/cliBinary';
import { temporalDevServerArgs } from '../../src/temporal/devServer';
import { freeServerPort, INTERNAL_PORTS, type InternalPort } from '../temporal-server/server';
import { PostgresCluster } from './postgres';
import { mainProcess, REPO, ServiceProcess, waitPortFree, withGuard } from '../../support/serviceProcess';

/**
 * The stack under test, every part a separate process group on fixed loopback ports (so a
 * restarted part is found where it was): Temporal (the dev server with a SQLite file in the run
 * folder, or a real Temporal server, `npm run temporal-server`, on the run's PostgreSQL), the database (embedded: src/db/embeddedServer.ts on the run's DATA_DIR; postgresql: a cluster of
 * the runner's own, or an external DATABASE_URL), and three `src/main.ts` processes with
 * SERVICES=api, worker and sandbox on one task queue.
 */
export type DatabaseKind = 'embedded' | 'postgresql';
/** `dev`: the Temporal CLI's dev server; `server`: the Temporal server on PostgreSQL (scripts/temporal-server). */
export type TemporalKind = 'dev' | 'server';

export interface StackOptions {
  root: string;
  database: DatabaseKind;
  temporal: TemporalKind;
  /** postgresql: the PostgreSQL binaries to run a cluster of our own (restartable), else `externalDatabaseUrl`. */
  postgresBin?: string;
  externalDatabaseUrl?: string;
  /** Settings for the API and worker processes (timeouts, sweep, webhook retries). */
  serviceEnv: Record<string, string>;
  log: (source: string, line: string) => void;
}

export type PartName = 'api' | 'worker' | 'sandbox';

export class ChaosStack {
  readonly dataDir: string;
  ports = { api: 0, sim: 0, temporal: 0, db: 0, pg: 0 };
  /** The Temporal server's other ports, kept across its restarts. */
  temporalPorts: Partial<Record<InternalPort, number>> = {};
  postgres?: PostgresCluster;
  embeddedDb?: ServiceProcess;
  temporal?: ServiceProcess;
  parts: Partial<Record<PartName, ServiceProcess>> = {};
  databaseUrl = '';
  private readonly taskQueue = 'chaos-payments';

  constructor(readonly opts: StackOptions) {
    this.dataDir = path.join(opts.root, 'data');
    fs.mkdirSync(this.dataDir, { recursive: true });
  }

  get apiUrl(): string {
    return `http://127.0.0.1:${this.ports.api}`;
  }

  get sandboxUrl(): string {
    return `http://127.0.0.1:${this.ports.sim}`;
  }

  get temporalAddress(): string {
    return `127.0.0.1:${this.ports.temporal}`;
  }

  /** Whether the runner controls a PostgreSQL server it can restart. */
  get controlsPostgres(): boolean {
    return !!this.postgres;
  }

  async start(): Promise<void> {
    const [api, sim, temporal, db, pg] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
    this.ports = { api, sim, temporal, db, pg };
    if (this.opts.temporal === 'server') {
      if (this.opts.database !== 'postgresql') throw new Error('--temporal server: runs on PostgreSQL (--database postgresql)');
      for (const name of INTERNAL_PORTS) this.temporalPorts[name] = await freeServerPort();
    }
    if (this.opts.database === 'postgresql') {
      if (this.opts.postgresBin) {
        this.postgres = new PostgresCluster(this.opts.postgresBin, pg, (l) => this.opts.log('postgresql', l));
        await this.postgres.create();
        this.databaseUrl = this.postgres.url;
      } else if (this.opts.externalDatabaseUrl) {
        this.databaseUrl = this.opts.externalDatabaseUrl;
      } else {
        throw new Error('postgresql: no PostgreSQL binaries to run a cluster and no DATABASE_URL');
      }
    }
    await this.startBackends();
    await migrate(this.databaseUrl);
    await this.startParts(['api', 'worker', 'sandbox']);
  }

  /** Temporal and (embedded) the database. */
  private async startBackends(): Promise<void> {
    const jobs: Promise<unknown>[] = [this.startTemporal()];
    if (this.opts.database === 'embedded') jobs.push(this.startEmbeddedDb());
    await Promise.all(jobs);
  }

  private async startTemporal(): Promise<void> {
    await waitPortFree(this.ports.temporal);
    if (this.opts.temporal === 'server') {
      // Its databases next to the service's, on the same PostgreSQL server: a PostgreSQL restart hits both.
      this.temporal = new ServiceProcess({
        name: 'temporal',
        command: process.execPath,
        args: tsxNodeArgs(path.join(REPO, 'scripts/temporal-server/main.ts')),
        env: withGuard({
          ...process.env,
          TEMPORAL_SERVER_DATABASE_URL: this.databaseUrl,
          TEMPORAL_SERVER_HOST: '127.0.0.1',
          TEMPORAL_SERVER_PORT: String(this.ports.temporal),
          TEMPORAL_NAMESPACE: 'default',
          ...Object.fromEntries(Object.entries(this.temporalPorts).map(([k, v]) => [k, String(v)])),
        }),
        ready: /^temporal-server ready address=(\S+)/,
        readyTimeoutMs: 180_000,
        onLine: (l) => this.opts.log('temporal', l),
      });
      await this.temporal.start();
      return;
    }
    const args = temporalDevServerArgs({
      host: '127.0.0.1',
      port: this.ports.temporal,
      namespace: 'default',
      dbFile: path.join(this.opts.root, 'temporal.db'),
    });
    this.temporal = new ServiceProcess({
      name: 'temporal',
      command: process.execPath,
      args: [path.join(__dirname, '../../support/guardedExec.cjs'), findTemporalCli(), ...args],
      env: withGuard({ ...process.env, GUARDED_READY_PORT: String(this.ports.temporal) }),
      ready: /^ready$/,
      readyTimeoutMs: 60_000,
      onLine: (l) => this.opts.log('temporal', l),
    });
    await this.temporal.start();
  }

  private async startEmbeddedDb(): Promise<void> {
    await waitPortFree(this.ports.db);
    this.embeddedDb = new ServiceProcess({
      name: 'embedded database',
      command: process.execPath,
      args: tsxNodeArgs(path.join(REPO, 'src/db/embeddedServer.ts')),
      env: withGuard({ ...process.env, DATA_DIR: this.dataDir, HOST: '127.0.0.1', EMBEDDED_DB_PORT: String(this.ports.db) }),
      ready: /^listening (\S+)/,
      readyTimeoutMs: 60_000,
      onLine: (l) => this.opts.log('database', l),
    });
    const [, url] = await this.embeddedDb.start();
    this.databaseUrl = url!;
  }

  private env(part: PartName): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...this.opts.serviceEnv,
      SERVICES: part,
      HOST: '127.0.0.1',
      PORT: String(this.ports.api),
      SIM_PORT: String(this.ports.sim),
      DATA_DIR: this.dataDir,
      DATABASE_URL: this.databaseUrl,
      TEMPORAL_ADDRESS: this.temporalAddress,
      TEMPORAL_TASK_QUEUE: this.taskQueue,
      TEMPORAL_METRICS_PORT: '0',
      SANDBOX_URL: this.sandboxUrl,
      SANDBOX_NOTIFY_URL: `${this.apiUrl}/internal/acquirer/notifications`,
      SANDBOX_NOTIFY_SECRET: 'chaos-notify-secret-0123456789',
    };
    return env;
  }

  async startParts(names: PartName[]): Promise<void> {
    await Promise.all(
      names.map(async (name) => {
        if (name === 'api') await waitPortFree(this.ports.api);
        if (name === 'sandbox') await waitPortFree(this.ports.sim);
        const proc = mainProcess(name, this.env(name), (l) => this.opts.log(name, l));
        this.parts[name] = proc;
        await proc.start();
      }),
    );
  }

  /** kill -9 of one part, then a start of a fresh one. */
  async killPart(name: PartName): Promise<void> {
    await this.parts[name]?.kill9();
  }

  /** kill -9 of everything the stack runs (PostgreSQL excepted: it is a server of its own). */
  async killEverything(): Promise<void> {
    await Promise.all([...Object.values(this.parts).map((p) => p?.kill9()), this.temporal?.kill9(), this.embeddedDb?.kill9()]);
  }

  /** Starts everything again on the same data (the restart after killEverything). */
  async startEverything(): Promise<void> {
    await this.startBackends();
    await this.startParts(['api', 'worker', 'sandbox']);
  }

  /** kill -9 of Temporal (dev server or server), down `downMs`, started again on the same data. */
  async restartTemporal(downMs: number): Promise<void> {
    await this.temporal?.kill9();
    await new Promise((r) => setTimeout(r, downMs));
    await this.startTemporal();
  }

  async restartPostgres(): Promise<void> {
    if (!this.postgres) throw new Error('no PostgreSQL server under the runner');
    await this.postgres.restart();
  }

  /** Every process stopped (kill -9: nothing left to keep), the cluster's files removed. */
  async destroy(): Promise<void> {
    await this.killEverything().catch(() => undefined);
    await this.postgres?.destroy().catch(() => undefined);
  }
}
