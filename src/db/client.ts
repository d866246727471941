import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

export type Db = PrismaClient;

/** One Prisma client over the PostgreSQL driver, for the embedded database and a real server alike. */
export function createDb(databaseUrl: string, opts: { poolSize?: number } = {}): Db {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: opts.poolSize ?? 10 });
  return new PrismaClient({ adapter });
}

/** True when the error is PostgreSQL's unique violation (directly or wrapped by Prisma). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string }; meta?: { driverAdapterError?: { cause?: { originalCode?: string; kind?: string } } } };
  return (
    e?.code === 'P2002' ||
    e?.code === '23505' ||
    e?.cause?.code === '23505' ||
    e?.meta?.driverAdapterError?.cause?.kind === 'UniqueConstraintViolation' ||
    e?.meta?.driverAdapterError?.cause?.originalCode === '23505'
  );
}
