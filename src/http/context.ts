import type { ParameterizedContext } from 'koa';
import type { Client } from '@temporalio/client';
import type { Acquirers } from '../acquirer/acquirers';
import type { AcquirerPort } from '../acquirer/port';
import type { AcquirerResolver } from '../acquirer/resolver';
import type { Principal } from '../auth/principal';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { Logger } from '../logger';
import type { SignInThrottle } from '../users/signInThrottle';
import type { RateLimiter } from './rateLimit';

/** What every route handler can reach. */
export interface AppDeps {
  config: Config;
  db: Db;
  temporal: Client;
  /** The live acquirer (ACQUIRER). */
  acquirer: AcquirerPort;
  /** Test payments' and live payments' acquirers: choose by the key's mode or the payment's acquirerName. */
  acquirers: Acquirers;
  /** This process's resolver: it remembers who took the payments it created (their notifications read less). */
  resolver: AcquirerResolver;
  logger: Logger;
  rateLimiter: RateLimiter;
  signInThrottle: SignInThrottle;
}

export interface ApiState {
  requestId: string;
  log: Logger;
  principal?: Principal;
}

export type ApiContext = ParameterizedContext<ApiState, { deps: AppDeps; params: Record<string, string> }>;
