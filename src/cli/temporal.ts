/**
 * A Temporal client for operator commands that act on workflows (terminal:clear): the cluster at
 * TEMPORAL_ADDRESS, or else the dev server `npm start` runs on HOST:TEMPORAL_PORT. Unlike the
 * database, the CLI never starts Temporal itself: such commands need the running service.
 */
import { Client, Connection } from '@temporalio/client';
import type { Config } from '../config';
import { CliError } from './output';
import { withInstallationSecrets } from '../secrets/installation';
import { grantKeys, messageGrantInterceptor } from '../security/messageGrants';

export function temporalAddress(config: Config): string {
  return config.TEMPORAL_ADDRESS ?? `${config.HOST}:${config.TEMPORAL_PORT}`;
}

export async function withTemporalClient<T>(config: Config, fn: (client: Client) => Promise<T>): Promise<T> {
  const address = temporalAddress(config);
  let connection: Connection;
  try {
    connection = await Connection.connect({ address, connectTimeout: '5s' });
  } catch (err) {
    throw new CliError(`cannot reach Temporal at ${address} (is the service running?): ${(err as Error).message}`);
  }
  try {
    // The operator's money-moving messages carry the installation's grant, as the API's do (docs/security.md).
    const keys = grantKeys(withInstallationSecrets({ ...config, SERVICES: ['worker'] }));
    return await fn(new Client({ connection, namespace: config.TEMPORAL_NAMESPACE, interceptors: { workflow: [messageGrantInterceptor(keys)] } }));
  } finally {
    await connection.close().catch(() => undefined);
  }
}
