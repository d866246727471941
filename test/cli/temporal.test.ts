import { loadConfig } from '../../src/config';
import { temporalAddress, withTemporalClient } from '../../src/cli/temporal';

/** The Temporal helper operator commands (terminal:clear) build on. */
describe('withTemporalClient', () => {
  it('connects to TEMPORAL_ADDRESS, or else to the dev server on HOST:TEMPORAL_PORT', async () => {
    const config = loadConfig({ TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS! });
    const namespace = await withTemporalClient(config, async (client) => {
      await client.workflowService.getSystemInfo({});
      return client.options.namespace;
    });
    expect(namespace).toBe('default');
    expect(temporalAddress(loadConfig({ HOST: '127.0.0.9', TEMPORAL_PORT: '7999' }))).toBe('127.0.0.9:7999');
  });
});
