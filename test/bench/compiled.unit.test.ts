import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { compiled } from '../../bench/compiled';
import { prepareServiceCode } from '../../bench/build';

/** The bench's processes run JavaScript, not tsx (bench/compiled.ts, bench/build.ts; docs/benchmark.md). */
describe('bench code', () => {
  it('compiles a bench file to CommonJS that plain node runs, with no loader', () => {
    const file = compiled(path.join(__dirname, '../../bench/sameShapeActivities.ts'));
    expect(file).toMatch(/node_modules[\\/]\.cache[\\/]isp-bench[\\/]sameShapeActivities\.js$/);
    const run = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(file)}).sendBill().then((r) => console.log(r))`], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('placed');
  });

  it('a CPU profile runs the sources (its frames name source files); nothing needs building for it', () => {
    expect(prepareServiceCode(true)).toBe('sources');
  });
});
