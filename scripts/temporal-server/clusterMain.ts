/**
 * `npm run temporal-cluster`
 *
 * A Temporal cluster of TEMPORAL_CLUSTER_NODES (default 2) full server processes on one
 * PostgreSQL (./cluster.ts), each `npm run temporal-server` on loopback ports of its own, and one
 * client address in front of their frontends (./proxy.ts), in the foreground. Prints exactly one
 * line on standard output once every node answers,
 * `temporal-cluster ready address=HOST:PORT nodes=HOST:PORT,HOST:PORT`; each node's output goes to
 * standard error prefixed with its name. SIGINT/SIGTERM stop it in order. docs/temporal-server.md.
 *
 * Settings: TEMPORAL_SERVER_DATABASE_URL (default DATABASE_URL's server), TEMPORAL_SERVER_HOST
 * (127.0.0.1), TEMPORAL_SERVER_PORT (the client address's port, default 7233; 0: a free one),
 * TEMPORAL_NAMESPACE (default), TEMPORAL_CLUSTER_NODES (2).
 */
import { killAllGroups } from '../../support/serviceProcess';
import { ensureTemporalServerBuilt } from './build';
import { TemporalCluster } from './cluster';

const log = (line: string): void => void process.stderr.write(`${line}\n`);

async function main(): Promise<never> {
  const databaseUrl = process.env.TEMPORAL_SERVER_DATABASE_URL || process.env.DATABASE_URL;
  if (!databaseUrl)
    throw new Error('No PostgreSQL for the cluster: set TEMPORAL_SERVER_DATABASE_URL (or DATABASE_URL), or run it under scripts/with-postgres.sh.');
  const size = Number(process.env.TEMPORAL_CLUSTER_NODES ?? 2);
  const port = Number(process.env.TEMPORAL_SERVER_PORT ?? 7233);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`TEMPORAL_SERVER_PORT: not a port: ${process.env.TEMPORAL_SERVER_PORT}`);
  await ensureTemporalServerBuilt(log); // once, before the nodes start building it side by side
  const cluster = new TemporalCluster({
    databaseUrl,
    host: process.env.TEMPORAL_SERVER_HOST || '127.0.0.1',
    port,
    namespace: process.env.TEMPORAL_NAMESPACE || 'default',
    size,
    log: (node, line) => log(`[${node}] ${line}`),
  });
  let stopping = false;
  // Whatever ends this process, no node outlives it (the orderly stop below comes first on a signal).
  process.on('exit', killAllGroups);
  const shutdown = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await cluster.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
  await cluster.start();
  process.stdout.write(`temporal-cluster ready address=${cluster.address} nodes=${cluster.nodeAddresses.join(',')}\n`);
  // Runs until stopped; a node that dies is reported, not restarted (an operator's supervisor does that).
  for (const [i, node] of cluster.nodes.entries()) node.on('exit', (code) => stopping || log(`temporal-cluster: node ${i + 1} exited (code ${code})`));
  return new Promise<never>(() => undefined);
}

main().catch((err) => {
  log(`temporal-cluster: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
