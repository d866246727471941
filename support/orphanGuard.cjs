/**
 * Preloaded (`node --require`) into every Node process the chaos runner and the scale-out test
 * start. If the process that started us dies, even by kill -9 (so no exit handler of it ran), the
 * whole process group we belong to is killed: nothing outlives its owner. Linux reads the group
 * from /proc; elsewhere only this process stops.
 */
'use strict';
const fs = require('node:fs');

const parent = process.ppid;

function processGroup() {
  try {
    // /proc/self/stat: "pid (comm) state ppid pgrp ..."; comm may contain spaces, so split after ')'.
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[2]);
  } catch {
    return process.pid;
  }
}

const timer = setInterval(() => {
  if (process.ppid === parent) return;
  const group = processGroup();
  try {
    if (group > 1) process.kill(-group, 'SIGKILL');
  } catch {
    // the group is gone already
  }
  process.kill(process.pid, 'SIGKILL');
}, 500);
timer.unref();
