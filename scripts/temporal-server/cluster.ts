import path from 'node:path';
import { tsxNodeArgs } from '../../src/process/tsx';
import { ServiceProcess, waitPortFree, withGuard } from '../../support/serviceProcess';
import { FailoverProxy } from './proxy';
import { freeServerPort, INTERNAL_PORTS, type InternalPort } from './server';

/**
 * A Temporal cluster of several full server processes (frontend, history, matching and worker
 * services each) on one PostgreSQL: one database, so they are one cluster. They find each other
 * through the database's cluster_membership table and share the history shards and task queue
 * partitions among them (ringpop); when a node dies, the others take its shards over once
 * membership has noticed. Each node is `npm run temporal-server` (./main.ts) on ports of its own,
 * a process group that can be killed -9 and started again on the same ports. Clients reach the
 * frontends through one address, a FailoverProxy (the load balancer of a deployment); a cluster of
 * one node is its own address, with no proxy between.
 */
export interface TemporalClusterOptions {
  /** postgresql://user:password@host:port of the server that holds the cluster's databases. */
  databaseUrl: string;
  host?: string;
  /** The clients' address's port (the proxy, or the only node's frontend); 0: a free one. */
  port?: number;
  namespace?: string;
  /** Number of nodes (default 2). */
  size?: number;
  log: (node: string, line: string) => void;
}

interface NodeSpec {
  name: string;
  port: number;
  ports: Record<InternalPort, number>;
}

export class TemporalCluster {
  readonly nodes: ServiceProcess[] = [];
  private readonly specs: NodeSpec[] = [];
  private proxy?: FailoverProxy;
  private proxyPort = 0;

  constructor(private readonly opts: TemporalClusterOptions) {}

  get host(): string {
    return this.opts.host ?? '127.0.0.1';
  }

  /** The address clients use: the proxy in front of every node's frontend, or the only node's. */
  get address(): string {
    return this.proxy ? `${this.host}:${this.proxyPort}` : this.nodeAddresses[0]!;
  }

  /** Each node's own frontend address. */
  get nodeAddresses(): string[] {
    return this.specs.map((s) => `${this.host}:${s.port}`);
  }

  /**
   * Starts the nodes one after the other (the first sets the schema and the namespace up; each
   * later one finds them there and joins), then the proxy (when there are several). Each node's
   * ports are drawn just before it starts: a drawn port is claimed for one to two minutes only
   * (src/process/freePort.ts), and the first node alone can take longer than that to be ready.
   */
  async start(): Promise<void> {
    const size = this.opts.size ?? 2;
    if (!Number.isInteger(size) || size < 1) throw new Error(`cluster size: not a positive integer: ${size}`);
    for (let i = 0; i < size; i++) {
      const ports = {} as Record<InternalPort, number>;
      for (const name of INTERNAL_PORTS) ports[name] = await freeServerPort(this.host);
      const port = size === 1 && this.opts.port ? this.opts.port : await freeServerPort(this.host);
      this.specs.push({ name: size === 1 ? 'temporal' : `temporal-${i + 1}`, port, ports });
      this.nodes.push(this.nodeProcess(this.specs[i]!));
      await this.startNode(i);
    }
    if (size === 1) return;
    this.proxy = new FailoverProxy(this.specs.map((s) => ({ host: this.host, port: s.port })));
    this.proxyPort = await this.proxy.listen(this.opts.port ?? 0, this.host);
  }

  private nodeProcess(spec: NodeSpec): ServiceProcess {
    return new ServiceProcess({
      name: spec.name,
      command: process.execPath,
      args: tsxNodeArgs(path.join(__dirname, 'main.ts')),
      env: withGuard({
        ...process.env,
        TEMPORAL_SERVER_DATABASE_URL: this.opts.databaseUrl,
        TEMPORAL_SERVER_HOST: this.host,
        TEMPORAL_SERVER_PORT: String(spec.port),
        TEMPORAL_NAMESPACE: this.opts.namespace ?? 'default',
        ...Object.fromEntries(Object.entries(spec.ports).map(([k, v]) => [k, String(v)])),
      }),
      ready: /^temporal-server ready address=(\S+)/,
      readyTimeoutMs: 180_000,
      onLine: (l) => this.opts.log(spec.name, l),
    });
  }

  /** Starts node `i` (again) on its ports; resolves once it answers. */
  async startNode(i: number): Promise<void> {
    const spec = this.specs[i]!;
    await waitPortFree(spec.port, this.host);
    await this.nodes[i]!.start();
  }

  /** kill -9 of node `i` (its wrapper and the server binary). */
  async killNode(i: number): Promise<void> {
    await this.nodes[i]!.kill9();
  }

  async killAll(): Promise<void> {
    await Promise.all(this.nodes.map((n) => n.kill9()));
  }

  /** Orderly stop of every node (SIGTERM), and of the proxy. */
  async stop(): Promise<void> {
    await this.proxy?.close();
    await Promise.all(this.nodes.map((n) => n.stop(20_000)));
  }
}
