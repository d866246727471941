import path from 'node:path';
import { ManagedChild } from '../process/child';

/** Starts the embedded database process and resolves with its connection URL once it listens. */
export async function startEmbeddedDatabase(opts: { dataDir: string; host: string; port: number }): Promise<{ url: string; child: ManagedChild }> {
  const entry = path.join(__dirname, 'embeddedServer.ts');
  const tsx = require.resolve('tsx/cli');
  const child = new ManagedChild('embedded database', process.execPath, [tsx, entry], {
    ...process.env,
    DATA_DIR: opts.dataDir,
    HOST: opts.host,
    EMBEDDED_DB_PORT: String(opts.port),
  });
  const [, url] = await child.waitForLine(/^listening (\S+)/, 60_000);
  return { url: url!, child };
}
