/**
 * Several clients at once on the embedded database: request cycles with different parameter
 * counts and transactions from many connections must never interleave inside the one PGlite
 * session. (Against a real PostgreSQL this simply passes.)
 */
import { Pool } from 'pg';

it('keeps concurrent request cycles and transactions of many connections apart', async () => {
  const pools = [new Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 5 }), new Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 5 })];
  try {
    await pools[0]!.query('CREATE TABLE IF NOT EXISTS "_concurrency_probe" (id SERIAL PRIMARY KEY, a INT, b TEXT)');
    const work = Array.from({ length: 200 }, async (_, i) => {
      const pool = pools[i % 2]!;
      if (i % 10 === 0) {
        const client = await pool.connect();
        try {
          await client.query('BEGIN');
          await client.query('INSERT INTO "_concurrency_probe" (a, b) VALUES ($1, $2)', [i, `t${i}`]);
          const r = await client.query('SELECT count(*)::int AS n FROM "_concurrency_probe" WHERE a = $1', [i]);
          expect(r.rows[0].n).toBe(1);
          await client.query('COMMIT');
        } finally {
          client.release();
        }
      } else if (i % 3 === 0) {
        const r = await pool.query('SELECT $1::int + $2::int + $3::int AS s', [i, 1, 2]);
        expect(r.rows[0].s).toBe(i + 3);
      } else {
        const r = await pool.query('SELECT $1::text AS t', [`v${i}`]);
        expect(r.rows[0].t).toBe(`v${i}`);
      }
    });
    await Promise.all(work);
    // a failing statement does not stop the server for everyone else
    await expect(pools[0]!.query('SELECT * FROM "no_such_table"')).rejects.toThrow(/no_such_table/);
    expect((await pools[1]!.query('SELECT 1 AS one')).rows[0].one).toBe(1);
  } finally {
    await pools[0]!.query('DROP TABLE IF EXISTS "_concurrency_probe"').catch(() => undefined);
    await Promise.all(pools.map((p) => p.end()));
  }
});
