// The package registry reachable here serves only the packages this platform (linux x64) uses,
// so npm leaves the other platforms' optional binaries (@swc/core-darwin-arm64, ...) out of
// package-lock.json, and `npm ci` then refuses the lock as out of sync. This adds each missing
// optional dependency with the os and cpu its name declares, so npm ci accepts the lock and skips
// them on every other platform. Run after any `npm install` that changes the lock.
import fs from 'node:fs';

const OS = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openbsd', 'netbsd', 'sunos', 'aix', 'openharmony'];
const CPU = {
  arm64: 'arm64',
  x64: 'x64',
  ia32: 'ia32',
  arm: 'arm',
  ppc64: 'ppc64',
  s390x: 's390x',
  riscv64: 'riscv64',
  loong64: 'loong64',
  mips64el: 'mips64el',
  wasm32: 'wasm32',
  universal: null,
};

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
let added = 0;
for (const [path, pkg] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const base = path ? `${path}/node_modules/${name}` : `node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (lock.packages[base] || lock.packages[hoisted]) continue;
    const parts = name.split('/').pop().split('-');
    const os = parts.find((p) => OS.includes(p));
    const cpu = parts.map((p) => CPU[p]).find((c) => c !== undefined);
    if (!os) continue; // not a platform binary: leave it to npm
    const entry = { version, optional: true, os: [os] };
    if (cpu) entry.cpu = [cpu];
    if (parts.includes('musl')) entry.libc = ['musl'];
    else if (parts.includes('gnu') && os === 'linux') entry.libc = ['glibc'];
    lock.packages[hoisted] = entry;
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: ${added} platform entries added`);
