-- Counters of the rate limits and sign-in throttles, shared by every API process: the table of
-- rate-limiter-flexible's PostgreSQL store (lower-case column names are the library's). "expire" is
-- in epoch milliseconds; a row past it counts as absent and is deleted by the library later.
CREATE TABLE "RateLimit" (
  "key" VARCHAR(255) PRIMARY KEY,
  "points" INTEGER NOT NULL DEFAULT 0,
  "expire" BIGINT
);
CREATE INDEX "RateLimit_expire_idx" ON "RateLimit" ("expire");
