import fs from 'node:fs';
import type { ManagedChild } from '../../src/process/child';

export default async function globalTeardown(): Promise<void> {
  const state = (globalThis as any).__ISP_TEST__ as { root: string; children: ManagedChild[] } | undefined;
  if (!state) return;
  for (const child of state.children.reverse()) await child.stop();
  fs.rmSync(state.root, { recursive: true, force: true });
}
