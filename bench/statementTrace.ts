/**
 * `--trace-statements FILE` (PostgreSQL only): every statement the database ran during the open
 * loop, from the server's own log (log_statement = all for the window), grouped into transactions
 * per backend (BEGIN ... COMMIT, or a statement on its own) and counted per lifecycle. Says which
 * statements and transactions a lifecycle makes, where pg_stat_database only gives their number.
 * scripts/with-postgres.sh starts the server with its log next to the data folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';

export interface StatementTrace {
  stop(lifecycles: number): Promise<string>;
}

async function setLogging(databaseUrl: string, on: boolean): Promise<string> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(on ? `ALTER SYSTEM SET log_statement = 'all'` : 'ALTER SYSTEM RESET log_statement');
    await client.query(on ? `ALTER SYSTEM SET log_line_prefix = '%m [%p] '` : 'ALTER SYSTEM RESET log_line_prefix');
    await client.query('SELECT pg_reload_conf()');
    const { rows } = await client.query('SHOW data_directory');
    return path.join(path.dirname(rows[0].data_directory as string), 'server.log');
  } finally {
    await client.end();
  }
}

/** A statement without its values: what it does, not with which row. */
function normalise(sql: string): string {
  return sql
    .replace(/\s+/g, ' ')
    .replace(/'[^']*'/g, '?')
    .replace(/\$\d+/g, '?')
    .replace(/\b\d+\b/g, '?')
    .trim()
    .slice(0, 220);
}

export async function startStatementTrace(databaseUrl: string): Promise<StatementTrace> {
  const logFile = await setLogging(databaseUrl, true);
  const from = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
  return {
    async stop(lifecycles: number): Promise<string> {
      await setLogging(databaseUrl, false);
      const text = fs.readFileSync(logFile).subarray(from).toString('utf8');
      // one entry per statement: "<time> [pid] LOG:  statement: ..." or "... LOG:  execute <name>: ..."
      const entries: { pid: string; sql: string }[] = [];
      for (const line of text.split('\n')) {
        const m = /^\S+ \S+ \S+ \[(\d+)\] LOG:\s+(?:statement|execute [^:]*):\s?(.*)$/.exec(line);
        if (m) entries.push({ pid: m[1]!, sql: m[2]! });
        else if (/^\s/.test(line) && entries.length && !/\[\d+\] (DETAIL|LOG)/.test(line)) entries[entries.length - 1]!.sql += ` ${line}`;
      }
      const open = new Map<string, string[]>();
      const transactions = new Map<string, number>();
      const statements = new Map<string, number>();
      const done = (sqls: string[]) => transactions.set(sqls.join('\n    '), (transactions.get(sqls.join('\n    ')) ?? 0) + 1);
      for (const { pid, sql } of entries) {
        const s = normalise(sql);
        if (/^(BEGIN|START TRANSACTION)/i.test(s)) {
          open.set(pid, []);
          continue;
        }
        if (/^(COMMIT|ROLLBACK)/i.test(s)) {
          done(open.get(pid) ?? ['(COMMIT without BEGIN)']);
          open.delete(pid);
          continue;
        }
        statements.set(s, (statements.get(s) ?? 0) + 1);
        const tx = open.get(pid);
        if (tx) tx.push(s);
        else done([s]);
      }
      const per = (n: number) => (n / Math.max(1, lifecycles)).toFixed(2);
      const total = [...transactions.values()].reduce((a, b) => a + b, 0);
      const lines = [
        `# Statements of the open loop, per lifecycle (${lifecycles} lifecycles, ${per(total)} transactions each)`,
        '',
        '## Transactions (per lifecycle, then the statements of one)',
        '',
        ...[...transactions.entries()].sort((a, b) => b[1] - a[1]).map(([sig, n]) => `- ${per(n)}: ${sig}`),
        '',
        '## Statements',
        '',
        ...[...statements.entries()].sort((a, b) => b[1] - a[1]).map(([sql, n]) => `- ${per(n)}: ${sql}`),
      ];
      return `${lines.join('\n')}\n`;
    },
  };
}
