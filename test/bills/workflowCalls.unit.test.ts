import { ServiceError } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { DomainError } from '../../src/domain/errors';
import { askBill } from '../../src/bills/workflowCalls';
import { loadConfig } from '../../src/config';

/** What the API answers when a bill's workflow cannot be asked (docs/bills.md). */
describe('askBill', () => {
  const config = loadConfig({});
  const deps = (): { config: typeof config; temporal: Client } => ({
    config,
    temporal: { workflow: { getHandle: () => ({}) } } as unknown as Client,
  });

  it('answers 503 with a retry hint when Temporal cannot be reached, never a 500', async () => {
    const down = askBill(deps(), 'bill_1', () => Promise.reject(new ServiceError('14 UNAVAILABLE: connection refused')));
    await expect(down).rejects.toBeInstanceOf(DomainError);
    const err = (await down.catch((e: unknown) => e)) as DomainError;
    expect(err.status).toBe(503);
    expect(err.retryAfterSeconds).toBe(2);
    expect(err.message).toMatch(/bill bill_1 could not be reached right now; retry with the same reference/);
  });

  it('answers undefined (the bill is final) when its workflow has ended', async () => {
    await expect(askBill(deps(), 'bill_1', () => Promise.reject(new WorkflowNotFoundError('gone', 'bill-bill_1', undefined)))).resolves.toBeUndefined();
    await expect(askBill(deps(), 'bill_1', () => Promise.reject(new Error('workflow execution already completed')))).resolves.toBeUndefined();
  });
});
