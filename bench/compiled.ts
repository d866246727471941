import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { PROJECT_ROOT } from '../src/paths';

/**
 * A bench file and the files beside it that it imports, compiled to CommonJS in a cache folder
 * of the project (node_modules/.cache/isp-bench/), so a bench process runs plain JavaScript as
 * the service's build does, without tsx. Returns the compiled entry's path.
 */
export function compiled(entry: string, besides: string[] = []): string {
  const out = path.join(PROJECT_ROOT, 'node_modules', '.cache', 'isp-bench');
  fs.mkdirSync(out, { recursive: true });
  for (const file of [entry, ...besides]) {
    const { outputText } = ts.transpileModule(fs.readFileSync(file, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      fileName: file,
    });
    fs.writeFileSync(path.join(out, path.basename(file).replace(/\.ts$/, '.js')), outputText);
  }
  return path.join(out, path.basename(entry).replace(/\.ts$/, '.js'));
}
