import { pathToFileURL } from 'node:url';

/**
 * Node arguments that run a TypeScript file with tsx's loader inside the node process itself.
 * Not the tsx CLI: it runs the file in a grandchild and relays signals to it, and when the relay
 * takes over 30 ms (a busy machine) it SIGKILLs the grandchild and exits 143, so a clean stop
 * on SIGTERM becomes a kill (and kill -9 of the CLI would miss the grandchild).
 */
export function tsxNodeArgs(file: string): string[] {
  return ['--require', require.resolve('tsx/preflight'), '--import', pathToFileURL(require.resolve('tsx')).href, file];
}
