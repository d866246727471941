import type { Logger } from '../../src/logger';
import { createMerchantWithKey, type MerchantWithKey } from './fixtures';
import { startTestStack, type TestStack } from './stack';

/** For a test file: a test stack started before its tests (`env`, `opts` as startTestStack's) and stopped after; `use` receives it. */
export function withStack(env: Record<string, string>, opts: { logger?: Logger }, use: (stack: TestStack) => void | Promise<void>): void {
  let stack: TestStack | undefined;
  beforeAll(async () => {
    stack = await startTestStack(env, opts);
    await use(stack);
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });
}

/** For a test file: a test stack and one business with an API key, made before its tests; the stack stopped after. `use` receives both. */
export function withStackAndMerchant(use: (started: { stack: TestStack; m: MerchantWithKey }) => void): void {
  withStack({}, {}, async (stack) => use({ stack, m: await createMerchantWithKey(stack.db) }));
}
