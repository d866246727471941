import fs from 'node:fs';
import path from 'node:path';
import { migrate } from '../../src/db/migrate';
import { freePort } from '../../src/process/freePort';
import { tsxNodeArgs } from '../../src/process/tsx';
import { findTemporalCli } from '../../src/temporal/cliBinary';
import { temporalDevServerArgs } from '../../src/temporal/devServer';
import { TemporalCluster } from '../temporal-server/cluster';
import { FailoverProxy } from '../temporal-server/proxy';
import { PostgresCluster } from './postgres';
import { mainProcess, REPO, ServiceProcess, waitPortFree, withGuard } from '../../support/serviceProcess';

/**
 * The stack under test, every part a separate process group on fixed loopback ports (so a
 * restarted part is found where it was): Temporal (the dev server with a SQLite file in the run
 * folder, or a real Temporal server, `npm run temporal-server`, on the run's PostgreSQL), the database (embedded: src/db/embeddedServer.ts on the run's DATA_DIR; postgresql: a cluster of
 * the runner's own, or an external DATABASE_URL), and three `src/main.ts` processes with
 * SERVICES=api, worker and sandbox on one task queue. On a Temporal cluster (`cluster`: two server
 * nodes, scripts/temporal-server/cluster.ts) it runs two API and two worker processes, the APIs
 * behind one address (a FailoverProxy, as a load balancer would put them).
 */
export type DatabaseKind = 'embedded' | 'postgresql';
/**
 * `dev`: the Temporal CLI's dev server; `server`: the Temporal server on PostgreSQL
 * (scripts/temporal-server); `cluster`: two such servers as one cluster.
 */
export type TemporalKind = 'dev' | 'server' | 'cluster';

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
const PART_NAMES: PartName[] = ['api', 'worker', 'sandbox'];

export class ChaosStack {
  readonly dataDir: string;
  ports = { api: 0, sim: 0, temporal: 0, db: 0, pg: 0, mail: 0 };
  postgres?: PostgresCluster;
  embeddedDb?: ServiceProcess;
  /** The dev server (`dev`). */
  temporal?: ServiceProcess;
  /** The Temporal server's nodes: one (`server`) or two (`cluster`). */
  cluster?: TemporalCluster;
  /** The running processes by instance name (`api`, or `api-1` and `api-2` on a cluster). */
  parts: Record<string, ServiceProcess> = {};
  /** Each API process's own port, behind `apiProxy` on a cluster. */
  private readonly apiPorts: Record<string, number> = {};
  private apiProxy?: FailoverProxy;
  /** Which instance of each part the next fault hits: they take turns. */
  private readonly turn: Record<PartName, number> = { api: 0, worker: 0, sandbox: 0 };
  databaseUrl = '';
  private readonly taskQueue = 'chaos-payments';

  constructor(readonly opts: StackOptions) {
    this.dataDir = path.join(opts.root, 'data');
    fs.mkdirSync(this.dataDir, { recursive: true });
  }

  /** The instances of a part: two API and two worker processes on a cluster, else one of each. */
  instances(part: PartName): string[] {
    return this.opts.temporal === 'cluster' && part !== 'sandbox' ? [`${part}-1`, `${part}-2`] : [part];
  }

  private partOf(instance: string): PartName {
    return instance.replace(/-\d+$/, '') as PartName;
  }

  get apiUrl(): string {
    return `http://127.0.0.1:${this.ports.api}`;
  }

  get sandboxUrl(): string {
    return `http://127.0.0.1:${this.ports.sim}`;
  }

  get temporalAddress(): string {
    return this.cluster ? this.cluster.address : `127.0.0.1:${this.ports.temporal}`;
  }

  /** The pid of Temporal when it is one process (the dev server, or a server of one node). */
  get temporalPid(): number | undefined {
    return this.temporal?.pid ?? (this.cluster?.nodes.length === 1 ? this.cluster.nodes[0]!.pid : undefined);
  }

  get temporalName(): string {
    return { dev: 'Temporal dev server', server: 'Temporal server', cluster: 'Temporal cluster of two nodes' }[this.opts.temporal];
  }

  /** Whether the runner controls a PostgreSQL server it can restart. */
  get controlsPostgres(): boolean {
    return !!this.postgres;
  }

  async start(): Promise<void> {
    const [api, sim, temporal, db, pg, mail] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort(), freePort()]);
    this.ports = { api, sim, temporal, db, pg, mail };
    if (this.opts.temporal !== 'dev' && this.opts.database !== 'postgresql')
      throw new Error(`--temporal ${this.opts.temporal}: runs on PostgreSQL (--database postgresql)`);
    for (const instance of this.instances('api')) this.apiPorts[instance] = instance === 'api' ? api : await freePort();
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
    if (this.opts.temporal === 'cluster') {
      this.apiProxy = new FailoverProxy(this.instances('api').map((i) => ({ host: '127.0.0.1', port: this.apiPorts[i]! })));
      await this.apiProxy.listen(api);
    }
    await this.startParts(PART_NAMES);
  }

  /** Temporal and (embedded) the database. */
  private async startBackends(): Promise<void> {
    const jobs: Promise<unknown>[] = [this.startTemporal()];
    if (this.opts.database === 'embedded') jobs.push(this.startEmbeddedDb());
    await Promise.all(jobs);
  }

  private async startTemporal(): Promise<void> {
    if (this.opts.temporal !== 'dev') {
      if (this.cluster) {
        for (let i = 0; i < this.cluster.nodes.length; i++) await this.cluster.startNode(i);
        return;
      }
      // `server` is a cluster of one node. Its databases are next to the service's, on the same PostgreSQL server: a PostgreSQL restart hits both.
      this.cluster = new TemporalCluster({
        databaseUrl: this.databaseUrl,
        size: this.opts.temporal === 'cluster' ? 2 : 1,
        log: (node, l) => this.opts.log(node, l),
      });
      await this.cluster.start();
      return;
    }
    await waitPortFree(this.ports.temporal);
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

  private env(instance: string): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...this.opts.serviceEnv,
      SERVICES: this.partOf(instance),
      HOST: '127.0.0.1',
      PORT: String(this.apiPorts[instance] ?? this.ports.api),
      SIM_PORT: String(this.ports.sim),
      // The sandbox's development mailbox (docs/receipts.md): the workers send the receipts there.
      MAIL_PORT: String(this.ports.mail),
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

  /** Starts every instance of the parts named, or the instances named (`api-2`). */
  async startParts(names: (PartName | string)[]): Promise<void> {
    const instances = names.flatMap((n) => (PART_NAMES.includes(n as PartName) ? this.instances(n as PartName) : [n]));
    await Promise.all(
      instances.map(async (instance) => {
        if (this.partOf(instance) === 'api') await waitPortFree(this.apiPorts[instance]!);
        if (instance === 'sandbox') await waitPortFree(this.ports.sim);
        const proc = mainProcess(instance, this.env(instance), (l) => this.opts.log(instance, l));
        this.parts[instance] = proc;
        await proc.start();
      }),
    );
  }

  /** kill -9 of one instance of a part (they take turns), down `downMs`, then a fresh one; says which. */
  async restartPart(part: PartName, downMs: number): Promise<string> {
    const instances = this.instances(part);
    const instance = instances[this.turn[part]++ % instances.length]!;
    const pid = this.parts[instance]?.pid;
    await this.parts[instance]?.kill9();
    await new Promise((r) => setTimeout(r, downMs));
    await this.startParts([instance]);
    return `kill -9 of the ${instance} process group (pid ${pid})${instances.length > 1 ? ` (of ${instances.join(', ')})` : ''}, down ${downMs} ms, restarted`;
  }

  /** kill -9 of everything the stack runs (PostgreSQL excepted: it is a server of its own). */
  async killEverything(): Promise<void> {
    await Promise.all([...Object.values(this.parts).map((p) => p.kill9()), this.temporal?.kill9(), this.cluster?.killAll(), this.embeddedDb?.kill9()]);
  }

  /** Starts everything again on the same data (the restart after killEverything). */
  async startEverything(): Promise<void> {
    await this.startBackends();
    await this.startParts(PART_NAMES);
  }

  /** kill -9 of Temporal (dev server, server, or every node of the cluster at once), down `downMs`, started again on the same data. */
  async restartTemporal(downMs: number): Promise<void> {
    await Promise.all([this.temporal?.kill9(), this.cluster?.killAll()]);
    await new Promise((r) => setTimeout(r, downMs));
    await this.startTemporal();
  }

  /** kill -9 of one node of the cluster, down `downMs`, started again on its ports; says which. */
  async restartTemporalNode(node: number, downMs: number): Promise<string> {
    const cluster = this.cluster;
    if (!cluster) throw new Error('no Temporal cluster: one node cannot be killed alone');
    const pid = cluster.nodes[node]!.pid;
    await cluster.killNode(node);
    await new Promise((r) => setTimeout(r, downMs));
    await cluster.startNode(node);
    return `kill -9 of ${cluster.nodes[node]!.name} (pid ${pid}) while ${cluster.nodes
      .filter((_, i) => i !== node)
      .map((n) => n.name)
      .join(', ')} ran, down ${downMs} ms, restarted`;
  }

  async restartPostgres(): Promise<void> {
    if (!this.postgres) throw new Error('no PostgreSQL server under the runner');
    await this.postgres.restart();
  }

  /** Every process stopped (kill -9: nothing left to keep), the cluster's files removed. */
  async destroy(): Promise<void> {
    await this.apiProxy?.close().catch(() => undefined);
    await this.killEverything().catch(() => undefined);
    await this.postgres?.destroy().catch(() => undefined);
  }
}
