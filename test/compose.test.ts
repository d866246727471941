/**
 * No Docker engine runs here, so docker-compose.yml is checked as a document: every variable it
 * gives the service containers is one the configuration module reads, and every variable of the
 * configuration module is settable in the compose file (or deliberately left out below).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from '../src/config';
import { TEMPORAL_DYNAMIC_CONFIG } from '../src/temporal/dynamicConfig';
import { TEMPORAL_SERVER_VERSION } from '../scripts/temporal-server/build';
import { searchAttributesSetting } from '../scripts/temporal-server/server';

const compose = parse(fs.readFileSync(path.resolve(__dirname, '../docker-compose.yml'), 'utf8'), { merge: true });
// Variables that make no sense in containers: the embedded parts are replaced by real servers.
const NOT_IN_CONTAINERS = ['NODE_ENV', 'EMBEDDED_DB_PORT', 'TEMPORAL_PORT', 'TEMPORAL_CLI_PATH', 'TEMPORAL_UI_PORT', 'TEMPORAL_METRICS_PORT'];

const serviceEnv = (name: string): Record<string, string> => compose.services[name].environment;

it('gives the service containers only variables the configuration module reads', () => {
  for (const name of ['api', 'worker', 'sandbox']) {
    const unknown = Object.keys(serviceEnv(name)).filter((v) => !CONFIG_VARIABLES.includes(v));
    expect({ service: name, unknown }).toEqual({ service: name, unknown: [] });
  }
});

it('makes every configuration variable settable', () => {
  const everywhere = new Set(['api', 'worker', 'sandbox'].flatMap((n) => Object.keys(serviceEnv(n))));
  const missing = CONFIG_VARIABLES.filter((v) => !everywhere.has(v) && !NOT_IN_CONTAINERS.includes(v));
  expect(missing).toEqual([]);
});

it('runs the API, the worker and the sandbox as separate services on external PostgreSQL and Temporal', () => {
  expect(serviceEnv('api').SERVICES).toBe('api');
  expect(serviceEnv('worker').SERVICES).toBe('worker');
  expect(serviceEnv('sandbox').SERVICES).toBe('sandbox');
  for (const name of ['api', 'worker']) {
    expect(serviceEnv(name).DATABASE_URL).toMatch(/^postgresql:\/\/.*@postgres:5432\//);
    expect(serviceEnv(name).TEMPORAL_ADDRESS).toBe('temporal:7233');
    expect(compose.services[name].healthcheck ?? compose.services[name].depends_on).toBeDefined();
  }
  for (const name of ['postgres', 'temporal-db', 'api']) expect(compose.services[name].healthcheck).toBeDefined();
  // Temporal is ready for them once its namespace and search attributes are set up.
  for (const name of ['api', 'worker', 'temporal-ui']) {
    expect(compose.services[name].depends_on['temporal-namespace']).toEqual({ condition: 'service_completed_successfully' });
  }
});

it('has defaults in the compose file that the configuration module accepts', () => {
  // ${VAR:-default} -> default; ${VAR:?message} -> a placeholder value
  const resolved = Object.fromEntries(
    Object.entries(serviceEnv('api')).map(([k, v]) => [
      k,
      String(v)
        .replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1')
        .replace(/\$\{[A-Z_]+:\?[^}]*\}/g, k === 'SECRETS_KEY' ? 'ab'.repeat(32) : 'a-secret-of-sixteen-chars'),
    ]),
  );
  expect(() => loadConfig(resolved)).not.toThrow();
});

it('gives the Temporal server the settings the service relies on, the same as the embedded dev server', () => {
  const temporal = compose.services.temporal;
  const file = temporal.environment.DYNAMIC_CONFIG_FILE_PATH as string;
  const mount = (temporal.volumes as string[]).find((v) => v.split(':')[1] === `/etc/temporal/${file}`);
  expect(mount).toBeDefined();
  const dynamicConfig = parse(fs.readFileSync(path.resolve(__dirname, '..', mount!.split(':')[0]!), 'utf8'));
  const values = Object.fromEntries(Object.entries(dynamicConfig).map(([key, entries]) => [key, (entries as Array<{ value: unknown }>)[0]!.value]));
  expect(values).toEqual(TEMPORAL_DYNAMIC_CONFIG);
});

it('publishes no port of the sandbox acquirer: its control endpoints take no credentials', () => {
  expect(compose.services.sandbox.ports).toBeUndefined();
  expect(serviceEnv('api').SANDBOX_URL).toBe('http://sandbox:3100');
});

it('runs the Temporal server that `npm run temporal-server` runs in CI: same version, settings and set-up', () => {
  const { temporal, 'temporal-schema': schema, 'temporal-namespace': namespace } = compose.services;
  expect(temporal.image).toBe(`temporalio/server:${TEMPORAL_SERVER_VERSION}`);
  for (const setup of [schema, namespace]) {
    expect(setup.image).toBe(`temporalio/admin-tools:${TEMPORAL_SERVER_VERSION}`);
    expect(setup.volumes).toContain('./deploy/temporal-setup.sh:/etc/temporal/setup.sh:ro');
  }
  expect(schema.command).toEqual(['sh', '/etc/temporal/setup.sh', 'schema']);
  expect(namespace.command).toEqual(['sh', '/etc/temporal/setup.sh', 'namespace']);
  // deploy/temporal-server.env: persistence, visibility and shard count, read by both.
  expect(temporal.env_file).toEqual(['deploy/temporal-server.env']);
  expect(schema.env_file).toEqual(['deploy/temporal-server.env']);
  expect(temporal.depends_on['temporal-schema']).toEqual({ condition: 'service_completed_successfully' });
  expect(namespace.environment.SEARCH_ATTRIBUTES).toBe(searchAttributesSetting());
  expect(namespace.environment.TEMPORAL_NAMESPACE).toBe(serviceEnv('api').TEMPORAL_NAMESPACE);
  const settings = fs.readFileSync(path.resolve(__dirname, '../deploy/temporal-server.env'), 'utf8');
  expect(settings).toMatch(/^DB=postgres12$/m);
  expect(settings).toMatch(/^NUM_HISTORY_SHARDS=4$/m);
});
