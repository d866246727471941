/**
 * Runs a non-Node program (the Temporal CLI, PostgreSQL) under a small Node parent that preloads
 * orphanGuard.cjs, so the program dies with its owner even when the owner is killed -9.
 *   node --require orphanGuard.cjs guardedExec.cjs <program> [args...]
 * With GUARDED_READY_PORT=<port> it prints `ready` once 127.0.0.1:<port> accepts connections.
 * Signals sent to the process group reach the program directly; this parent exits with it.
 */
'use strict';
const { spawn } = require('node:child_process');
const net = require('node:net');

const [program, ...args] = process.argv.slice(2);
const env = { ...process.env };
delete env.NODE_OPTIONS;
const child = spawn(program, args, { stdio: ['ignore', 'inherit', 'inherit'], env });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
child.on('error', (err) => {
  process.stderr.write(`cannot run ${program}: ${err.message}\n`);
  process.exit(127);
});
// The group gets the signal; the program handles its own; we only wait for it to end.
for (const s of ['SIGINT', 'SIGTERM', 'SIGQUIT', 'SIGHUP']) process.on(s, () => undefined);

const port = Number(process.env.GUARDED_READY_PORT || 0);
if (port) {
  const started = Date.now();
  const probe = () => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      process.stdout.write('ready\n');
    });
    socket.on('error', () => {
      if (Date.now() - started < 120000) setTimeout(probe, 200);
    });
  };
  probe();
}
