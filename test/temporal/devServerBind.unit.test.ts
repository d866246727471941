/**
 * `npm start`'s Temporal dev server stays on HOST (127.0.0.1 unless configured): its frontend and
 * its Web UI take no credentials, and the UI has no read-only switch (`temporal server start-dev`
 * has no such flag; docs/security.md).
 */
import { loadConfig } from '../../src/config';
import { temporalDevServerArgs } from '../../src/temporal/devServer';

const valueOf = (args: string[], flag: string): string | undefined => {
  const i = args.indexOf(flag);
  return i === -1 ? undefined : args[i + 1];
};

it('binds the frontend and the Web UI to HOST, loopback by default', () => {
  const host = loadConfig({}).HOST;
  expect(host).toBe('127.0.0.1');
  const args = temporalDevServerArgs({ host, port: 7233, uiPort: 8233, namespace: 'default' });
  expect(valueOf(args, '--ip')).toBe('127.0.0.1');
  expect(valueOf(args, '--ui-ip')).toBe('127.0.0.1');
  expect(args).not.toContain('0.0.0.0');
});

it('binds to the HOST given, and runs headless without a UI port', () => {
  const args = temporalDevServerArgs({ host: '::1', port: 7233, namespace: 'default' });
  expect(valueOf(args, '--ip')).toBe('::1');
  expect(args).toContain('--headless');
  expect(args).not.toContain('--ui-ip');
});
