import { defineConfig } from 'prisma/config';

// Only `prisma generate` runs here (see docs/architecture.md); migrations are applied by src/db/migrate.ts.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5433/postgres' },
});
