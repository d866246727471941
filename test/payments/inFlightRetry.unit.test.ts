import { withInFlightRetry } from '../../src/payments/workflowCalls';

/**
 * An update the server did not get to, or aborted when it dropped the workflow's update registry
 * under load, is sent again, and every attempt carries the same update id, so an update the
 * server did take is answered with its outcome, never applied a second time.
 */
describe('withInFlightRetry', () => {
  it('sends again after an aborted or unprocessed update, under the same update id each time', async () => {
    const ids: string[] = [];
    const failures = [new Error('Workflow Update was aborted.'), new Error("Update wasn't processed by worker")];
    const answer = await withInFlightRetry(async (updateId) => {
      ids.push(updateId);
      const failure = failures.shift();
      if (failure) throw failure;
      return 'answered';
    });
    expect(answer).toBe('answered');
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(1);
  });

  it('gives each call an update id of its own', async () => {
    const first = await withInFlightRetry(async (updateId) => updateId);
    const second = await withInFlightRetry(async (updateId) => updateId);
    expect(first).not.toBe(second);
  });

  it('passes any other failure on at once', async () => {
    let attempts = 0;
    await expect(
      withInFlightRetry(async () => {
        attempts++;
        throw new Error('the workflow refused it');
      }),
    ).rejects.toThrow('the workflow refused it');
    expect(attempts).toBe(1);
  });
});
