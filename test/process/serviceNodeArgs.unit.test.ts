import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serviceNodeArgs } from '../../src/process/tsx';

/**
 * A service process started as a child runs the build in dist/ only while it is newer than every
 * source (docs/architecture.md, "Production runs compiled code"): a source edited since the last
 * `npm run build` must run as it now is, through tsx.
 */
function project(opts: { built: boolean; editedAfter?: string }): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'isp-build-'));
  const write = (file: string, at: Date) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), '');
    fs.utimesSync(path.join(root, file), at, at);
  };
  const before = new Date(Date.now() - 60_000);
  const build = new Date(Date.now() - 30_000);
  write('src/main.ts', before);
  write('workflows/payment/run.ts', before);
  if (opts.built) {
    write('dist/src/main.js', build);
    write('dist/.tsbuildinfo', build);
  }
  if (opts.editedAfter) write(opts.editedAfter, new Date());
  return root;
}

const isTsx = (args: string[]) => args.some((a) => a.includes('tsx'));

describe('serviceNodeArgs', () => {
  it('runs the compiled twin when the build is newer than every source', () => {
    const root = project({ built: true });
    expect(serviceNodeArgs(path.join(root, 'src/main.ts'), root)).toEqual([path.join(root, 'dist/src/main.js')]);
  });

  it('runs the source through tsx when any source, in any folder the build compiles, changed after it', () => {
    const root = project({ built: true, editedAfter: 'workflows/payment/run.ts' });
    const args = serviceNodeArgs(path.join(root, 'src/main.ts'), root);
    expect(isTsx(args)).toBe(true);
    expect(args.at(-1)).toBe(path.join(root, 'src/main.ts'));
  });

  it('runs the source through tsx when there is no build, or no compiled twin of that file', () => {
    const none = project({ built: false });
    expect(isTsx(serviceNodeArgs(path.join(none, 'src/main.ts'), none))).toBe(true);
    const built = project({ built: true });
    fs.writeFileSync(path.join(built, 'src/other.ts'), '');
    fs.utimesSync(path.join(built, 'src/other.ts'), new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    expect(isTsx(serviceNodeArgs(path.join(built, 'src/other.ts'), built))).toBe(true);
  });
});
