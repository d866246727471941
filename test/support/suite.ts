import { createMerchantWithKey, type MerchantWithKey } from './fixtures';
import { startTestStack, type TestStack } from './stack';

/** For a test file: a test stack and one business with an API key, made before its tests; the stack stopped after. `use` receives both. */
export function withStackAndMerchant(use: (started: { stack: TestStack; m: MerchantWithKey }) => void): void {
  let stack: TestStack | undefined;
  beforeAll(async () => {
    stack = await startTestStack();
    use({ stack, m: await createMerchantWithKey(stack.db) });
  });
  afterAll(async () => {
    await stack?.stop();
  });
}
