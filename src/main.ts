/**
 * `npm start`: the whole service from nothing. Starts what is not given from outside (the
 * embedded database unless DATABASE_URL, the Temporal dev server unless TEMPORAL_ADDRESS),
 * applies pending migrations, then the parts SERVICES names, and prints `ready ` with the URLs.
 * SIGINT and SIGTERM stop everything in reverse order.
 */
import path from 'node:path';
import { ConfigError, loadConfig } from './config';
import { startEmbeddedDatabase } from './db/embedded';
import { migrate } from './db/migrate';
import { createLogger } from './logger';
import type { ManagedChild } from './process/child';
import { freePort } from './process/freePort';
import { installTemporalRuntime, startService } from './service';
import { startTemporalDevServer } from './temporal/devServer';
import { type ReadOnlyUi, startReadOnlyUi } from './temporal/readOnlyUi';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.LOG_LEVEL);
  const metricsPort = config.TEMPORAL_METRICS_PORT || (await freePort(config.METRICS_HOST));
  installTemporalRuntime(logger, `${config.METRICS_HOST}:${metricsPort}`);
  const children: ManagedChild[] = [];
  let service: Awaited<ReturnType<typeof startService>> | undefined;
  let uiGate: ReadOnlyUi | undefined;
  let stopping = false;
  const shutdown = async (code: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping');
    await service?.stop();
    await uiGate?.close();
    for (const child of children.reverse()) await child.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  try {
    const needsBackends = config.SERVICES.includes('api') || config.SERVICES.includes('worker');
    let databaseUrl = config.DATABASE_URL ?? '';
    let temporalAddress = config.TEMPORAL_ADDRESS ?? '';
    let temporalUi: string | undefined;
    if (needsBackends && !databaseUrl) {
      const embedded = await startEmbeddedDatabase({ dataDir: config.dataDir, host: config.HOST, port: config.EMBEDDED_DB_PORT });
      children.push(embedded.child);
      databaseUrl = embedded.url;
    }
    if (needsBackends && !temporalAddress) {
      // The Web UI read-only unless asked for: behind a gate on TEMPORAL_UI_PORT (src/temporal/readOnlyUi.ts).
      const uiPort = config.TEMPORAL_UI_WRITE_ACTIONS ? config.TEMPORAL_UI_PORT : await freePort(config.HOST);
      const devServer = await startTemporalDevServer({
        host: config.HOST,
        port: config.TEMPORAL_PORT,
        uiPort,
        dbFile: path.join(config.dataDir, 'temporal.db'),
        namespace: config.TEMPORAL_NAMESPACE,
      });
      children.push(devServer);
      devServer.on('exit', () => {
        if (!stopping) {
          logger.error('temporal dev server exited');
          void shutdown(1);
        }
      });
      temporalAddress = `${config.HOST}:${config.TEMPORAL_PORT}`;
      if (!config.TEMPORAL_UI_WRITE_ACTIONS)
        uiGate = await startReadOnlyUi({ host: config.HOST, port: config.TEMPORAL_UI_PORT, upstream: { host: config.HOST, port: uiPort } });
      temporalUi = `http://${config.HOST}:${config.TEMPORAL_UI_PORT}`;
    }
    if (needsBackends) {
      const applied = await migrate(databaseUrl);
      if (applied.length) logger.info({ applied }, 'migrations applied');
    }
    service = await startService(config, { databaseUrl, temporalAddress }, logger);
    const urls = [
      service.apiUrl && `api=${service.apiUrl}`,
      service.apiUrl && `docs=${service.apiUrl}/docs`,
      service.apiUrl && `dashboard=${service.apiUrl}/dashboard`,
      service.sandboxUrl && `sandbox=${service.sandboxUrl}`,
      service.mailUrl && `mailbox=${service.sandboxUrl}/sim/mailbox`,
      service.mailUrl && `smtp=${service.mailUrl}`,
      service.metricsUrl && `metrics=${service.metricsUrl}`,
      temporalUi && `temporal-ui=${temporalUi}`,
      temporalAddress && `temporal=${temporalAddress}`,
      databaseUrl && `database=${config.DATABASE_URL ? 'external' : databaseUrl.replace(/\/\/[^@]*@/, '//')}`,
    ].filter(Boolean);
    process.stdout.write(`ready ${urls.join(' ')}\n`);
  } catch (err) {
    logger.error({ err }, 'start failed');
    process.stderr.write(`start failed: ${err instanceof Error ? err.message : String(err)}\n`);
    await shutdown(1);
  }
}

void main();
