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
const NOT_IN_CONTAINERS = [
  'NODE_ENV',
  'EMBEDDED_DB_PORT',
  'TEMPORAL_PORT',
  'TEMPORAL_CLI_PATH',
  'TEMPORAL_UI_PORT',
  'TEMPORAL_UI_WRITE_ACTIONS',
  'TEMPORAL_METRICS_PORT',
];

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

// Security round (issue 22, docs/security.md): Temporal and the databases stay internal.
/** `${VAR:-default}` -> default, `${VAR}` and `${VAR:?message}` -> `VAR` (never contains a colon). */
const interpolateDefaults = (value: string): string =>
  value.replace(/\$\{([A-Z0-9_]+)(?::?-([^}]*)|:?\?[^}]*)?\}/g, (_m, name: string, def?: string) => def ?? name);

/** The host address each published port of a service binds; '' where none is given (every interface). */
function publishedHostIps(service: { ports?: Array<string | { host_ip?: string }> }): string[] {
  return (service.ports ?? []).map((port) => {
    if (typeof port !== 'string') return port.host_ip ?? '';
    const spec = interpolateDefaults(port).replace(/\/(tcp|udp)$/, '');
    const v6 = /^\[([^\]]+)\]:/.exec(spec);
    if (v6) return v6[1]!;
    const parts = spec.split(':');
    return parts.length === 3 ? parts[0]! : '';
  });
}

const LOOPBACK = ['127.0.0.1', '::1', 'localhost'];
// The API is the only part meant for the public (behind the operator's load balancer).
const PUBLIC_SERVICES = ['api'];

it('publishes nothing but the API on every interface: Temporal, its UI and the databases are loopback-only or unpublished', () => {
  for (const name of ['temporal', 'temporal-ui', 'postgres', 'temporal-db']) expect(compose.services[name]).toBeDefined();
  const exposed = Object.entries(compose.services as Record<string, { ports?: Array<string | { host_ip?: string }> }>)
    .filter(([name]) => !PUBLIC_SERVICES.includes(name))
    .flatMap(([name, service]) =>
      publishedHostIps(service)
        .filter((ip) => !LOOPBACK.includes(ip))
        .map((ip) => `${name} on '${ip || 'every interface'}'`),
    );
  expect(exposed).toEqual([]);
  // The UI is published, on loopback only; the frontend and the databases not at all.
  expect(publishedHostIps(compose.services['temporal-ui'])).toEqual(['127.0.0.1']);
  for (const name of ['temporal', 'postgres', 'temporal-db']) expect(compose.services[name].ports).toBeUndefined();
});

it('reads the port parts right, including ones that would expose a service', () => {
  expect(publishedHostIps({ ports: ['${TEMPORAL_UI_PORT:-8233}:8080'] })).toEqual(['']);
  expect(publishedHostIps({ ports: ['0.0.0.0:8233:8080', '8080', '127.0.0.1:${P}:8080/tcp', '[::1]:7233:7233'] })).toEqual(['0.0.0.0', '', '127.0.0.1', '::1']);
  expect(publishedHostIps({ ports: [{ host_ip: '127.0.0.1' }, {}] })).toEqual(['127.0.0.1', '']);
});

it('runs the Temporal Web UI read-only and without sign-in by default', () => {
  const ui = compose.services['temporal-ui'].environment;
  expect(ui.TEMPORAL_DISABLE_WRITE_ACTIONS).toBe('true');
  expect(ui.TEMPORAL_AUTH_ENABLED).toBe('false');
});

it('turns the UI write actions on only with its OIDC sign-in (deploy/compose.temporal-ui-auth.yml)', () => {
  const override = parse(fs.readFileSync(path.resolve(__dirname, '../deploy/compose.temporal-ui-auth.yml'), 'utf8'));
  expect(Object.keys(override.services)).toEqual(['temporal-ui']);
  const ui = override.services['temporal-ui'];
  expect(ui.ports).toBeUndefined(); // the base file's loopback port stays
  const env = ui.environment as Record<string, string>;
  expect(env.TEMPORAL_AUTH_ENABLED).toBe('true');
  expect(env.TEMPORAL_AUTH_TYPE).toBe('oidc');
  // No defaults for the sign-in: compose refuses to start the file without them.
  for (const name of ['TEMPORAL_AUTH_PROVIDER_URL', 'TEMPORAL_AUTH_CLIENT_ID', 'TEMPORAL_AUTH_CLIENT_SECRET', 'TEMPORAL_AUTH_CALLBACK_URL']) {
    expect({ name, value: env[name] }).toEqual({ name, value: expect.stringMatching(/^\$\{TEMPORAL_UI_AUTH_[A-Z_]+:\?[^}]+\}$/) });
  }
  // Still read-only unless the operator says otherwise.
  expect(interpolateDefaults(env.TEMPORAL_DISABLE_WRITE_ACTIONS!)).toBe('true');
  // Nothing else in the project turns them on.
  expect(fs.readFileSync(path.resolve(__dirname, '../docker-compose.yml'), 'utf8')).not.toMatch(/TEMPORAL_DISABLE_WRITE_ACTIONS:\s*"?false/);
});
