import { Writable } from 'node:stream';
import pino from 'pino';
import type { Logger } from '../../src/logger';
import { REDACT_PATHS } from '../../src/logger';

/** The service's own logger settings (src/logger.ts), writing every line to memory instead of stdout: for tests that read the logs. */
export function capturedLogger(level: 'debug' | 'info' = 'debug'): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const logger = pino({ level, base: { service: 'in-store-payments' }, redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink) as unknown as Logger;
  return { logger, lines };
}
