import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type Config } from '../../src/config';
import { freePort } from '../../src/process/freePort';
import { createLogger, type Logger } from '../../src/logger';
import { installTemporalRuntime, startService, type RunningService } from '../../src/service';

/**
 * The real service for one test file: API, worker and sandbox acquirer in this process, on the
 * run's shared Temporal dev server and database, with a task queue of its own.
 */
export interface TestStack extends RunningService {
  apiUrl: string;
  sandboxUrl: string;
  config: Config;
  db: NonNullable<RunningService['db']>;
  client: NonNullable<RunningService['client']>;
}

/**
 * Every stack of the run shares one database, so they share one SECRETS_KEY (a stack with a key of
 * its own would find the others' sealed secrets and refuse to start, as it should).
 */
export const TEST_SECRETS_KEY = 'a0'.repeat(32);

/** `logger`: use this logger instead of one at LOG_LEVEL (a test that inspects the log output). */
export async function startTestStack(env: Record<string, string> = {}, opts: { logger?: Logger } = {}): Promise<TestStack> {
  const id = crypto.randomBytes(4).toString('hex');
  const dataDir = path.join(process.env.TEST_ROOT!, `stack-${id}`);
  fs.mkdirSync(dataDir, { recursive: true });
  const config = loadConfig({
    PORT: '0',
    SIM_PORT: '0',
    MAIL_PORT: '0',
    DATA_DIR: dataDir,
    TEMPORAL_TASK_QUEUE: `test-${id}`,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    WEBHOOK_ALLOW_INSECURE: 'true',
    // The daily close walks every store of the shared test database: only the tests of it turn it on.
    SETTLEMENT_AUTO_CLOSE: 'false',
    DATABASE_URL: process.env.TEST_DATABASE_URL!,
    TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS!,
    SECRETS_KEY: TEST_SECRETS_KEY,
    ...(process.env.TEST_WORKFLOW_BUNDLE ? { WORKFLOW_BUNDLE: process.env.TEST_WORKFLOW_BUNDLE } : {}),
    ...env,
  });
  installTemporalRuntime(createLogger(config.LOG_LEVEL), `127.0.0.1:${await freePort()}`);
  const service = await startService(
    config,
    { databaseUrl: process.env.TEST_DATABASE_URL!, temporalAddress: process.env.TEST_TEMPORAL_ADDRESS! },
    opts.logger ?? createLogger(config.LOG_LEVEL),
  );
  return service as TestStack;
}
