import path from 'node:path';
import { RUNNING_COMPILED } from '../paths';
import { ManagedChild } from '../process/child';
import { serviceNodeArgs } from '../process/tsx';

/** Starts the embedded database process and resolves with its connection URL once it listens. */
export async function startEmbeddedDatabase(opts: { dataDir: string; host: string; port: number }): Promise<{ url: string; child: ManagedChild }> {
  // Compiled (npm start): node runs the compiled server; from the sources (tests), the build if current, else tsx.
  const args = RUNNING_COMPILED ? [path.join(__dirname, 'embeddedServer.js')] : serviceNodeArgs(path.join(__dirname, 'embeddedServer.ts'));
  const child = new ManagedChild('embedded database', process.execPath, args, {
    ...process.env,
    DATA_DIR: opts.dataDir,
    HOST: opts.host,
    EMBEDDED_DB_PORT: String(opts.port),
  });
  const [, url] = await child.waitForLine(/^listening (\S+)/, 60_000);
  return { url: url!, child };
}
