import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { createDb } from '../../src/db/client';
import { freePort } from '../../src/process/freePort';
import { uniqueId } from '../support/fixtures';
import { expectRefused, runAdmin } from './runAdmin';

/** Without DATABASE_URL the CLI uses the embedded database: the service's while it runs, else its own. */
const embeddedOnly = process.env.TEST_DATABASE_KIND === 'embedded' ? it : it.skip;

function nothingListens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('operator CLI without DATABASE_URL', () => {
  // Its own embedded database whatever the lane's: once, in the embedded lane.
  embeddedOnly('starts the embedded database itself when none runs, migrates it, and stops it again', async () => {
    const dataDir = path.join(process.env.TEST_ROOT!, uniqueId('cli-embedded'));
    const port = await freePort();
    const env = { DATABASE_URL: undefined, DATA_DIR: dataDir, HOST: '127.0.0.1', EMBEDDED_DB_PORT: String(port) };
    const externalId = uniqueId('m');

    const created = await runAdmin(['merchant:create', '--external-id', externalId, '--name', 'Embedded Co', '--json'], { env });
    expect({ code: created.code, stderr: created.stderr }).toEqual({ code: 0, stderr: '' });
    expect(created.json).toMatchObject({ externalId, name: 'Embedded Co' });
    expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(true);
    expect(await nothingListens(port)).toBe(true);

    // A second command opens the same files and finds the merchant.
    const again = await runAdmin(['merchant:create', '--external-id', externalId, '--name', 'Embedded Co', '--json'], { env });
    expect(expectRefused(again, 1)).toBe(`merchant '${externalId}' already exists`);
    expect(await nothingListens(port)).toBe(true);
  });

  embeddedOnly('uses the embedded database the running service serves', async () => {
    // The run's database is the embedded one, served on a loopback port as `npm start` serves it.
    const url = new URL(process.env.TEST_DATABASE_URL!);
    const externalId = uniqueId('m');
    const env = { DATABASE_URL: undefined, DATA_DIR: path.join(process.env.TEST_ROOT!, uniqueId('unused')), HOST: url.hostname, EMBEDDED_DB_PORT: url.port };
    const created = await runAdmin(['merchant:create', '--external-id', externalId, '--name', 'Shared Co', '--json'], { env });
    expect(created.code).toBe(0);
    const db = createDb(process.env.TEST_DATABASE_URL!, { poolSize: 1 });
    try {
      expect(await db.merchant.findUnique({ where: { externalId } })).toMatchObject({ id: created.json.id });
    } finally {
      await db.$disconnect();
    }
    // It did not open a database of its own.
    expect(fs.existsSync(path.join(env.DATA_DIR, 'pglite'))).toBe(false);
  });
});
