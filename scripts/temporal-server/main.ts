/**
 * `npm run temporal-server [-- --build-only]`
 *
 * Runs a real Temporal server on PostgreSQL (./server.ts), built once from its Go module
 * (./build.ts), in the foreground. Prints exactly one line on standard output,
 * `temporal-server ready address=HOST:PORT`, once it answers; everything else (the build, the
 * set-up, the server's own log) goes to standard error. SIGINT/SIGTERM stop it. With --build-only
 * it builds (when needed) and exits.
 *
 * Settings (docs/temporal-server.md):
 *   TEMPORAL_SERVER_DATABASE_URL  postgresql://user:password@host:port of the PostgreSQL server that
 *                                 holds its databases (created there); default: DATABASE_URL's server
 *   TEMPORAL_SERVER_HOST          address it listens on (default 127.0.0.1)
 *   TEMPORAL_SERVER_PORT          frontend gRPC port (default 7233; 0: a free one)
 *   TEMPORAL_NAMESPACE            namespace to create (default `default`)
 *   FRONTEND_HTTP_PORT, HISTORY_GRPC_PORT, ... (server.ts INTERNAL_PORTS): its other ports, free
 *                                 ones below 32768 where unset (freeServerPort says why)
 */
import { ensureTemporalServerBuilt } from './build';
import { freeServerPort, INTERNAL_PORTS, postgresTargetFromUrl, startTemporalServer, type InternalPort, type RunningTemporalServer } from './server';

const log = (line: string): void => void process.stderr.write(`${line}\n`);

async function main(): Promise<number> {
  if (process.argv.includes('--build-only')) {
    await ensureTemporalServerBuilt(log);
    return 0;
  }
  const url = process.env.TEMPORAL_SERVER_DATABASE_URL || process.env.DATABASE_URL;
  if (!url) {
    throw new Error(
      'No PostgreSQL for the Temporal server: set TEMPORAL_SERVER_DATABASE_URL=postgresql://user:password@host:port ' +
        '(its databases temporal and temporal_visibility are created there), or DATABASE_URL, or run it under scripts/with-postgres.sh.',
    );
  }
  const host = process.env.TEMPORAL_SERVER_HOST || '127.0.0.1';
  const portSetting = Number(process.env.TEMPORAL_SERVER_PORT ?? 7233);
  if (!Number.isInteger(portSetting) || portSetting < 0 || portSetting > 65535)
    throw new Error(`TEMPORAL_SERVER_PORT: not a port: ${process.env.TEMPORAL_SERVER_PORT}`);
  const ports: Partial<Record<InternalPort, number>> = {};
  for (const name of INTERNAL_PORTS) if (process.env[name]) ports[name] = Number(process.env[name]);

  let server: RunningTemporalServer | undefined;
  let stopping = false;
  const shutdown = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    await server?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown());
  process.on('SIGTERM', () => void shutdown());

  server = await startTemporalServer(
    {
      host,
      port: portSetting || (await freeServerPort(host)),
      namespace: process.env.TEMPORAL_NAMESPACE || 'default',
      database: postgresTargetFromUrl(url),
      ports,
    },
    log,
  );
  process.stdout.write(`temporal-server ready address=${server.address}\n`);
  const code = await server.exited;
  if (stopping) return 0;
  log(`temporal-server exited (code ${code})`);
  return code || 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    log(`temporal-server: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
