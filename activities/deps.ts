import type { Client } from '@temporalio/client';
import type { Acquirers } from '../src/acquirer/acquirers';
import type { AcquirerPort } from '../src/acquirer/port';
import type { Config } from '../src/config';
import type { Db } from '../src/db/client';
import type { Logger } from '../src/logger';

/** What activities reach: every side effect of a workflow goes through these. */
export interface ActivityDeps {
  config: Config;
  db: Db;
  /** The live acquirer (ACQUIRER). */
  acquirer: AcquirerPort;
  /** Test payments' and live payments' acquirers (a payment's acquirerName says which took it). */
  acquirers: Acquirers;
  logger: Logger;
  /** For activities that start or signal other workflows (webhook deliveries, sweep). */
  temporal: Client;
}
