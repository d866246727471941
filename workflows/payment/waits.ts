import { CancellationScope, condition, sleep } from '@temporalio/workflow';

/**
 * The payment run's waits (PaymentRun.until): like the SDK's condition(ready, timeoutMs) (true once
 * `ready` holds; false at the timeout, a Temporal timer), but woken by the step that changes what
 * `ready` reads (changed()) instead of by the SDK's check after each activation, which costs a trip
 * into the sandbox each time it releases a wait (docs/benchmark.md, "Trips into the sandbox").
 * `ready` may read only what calls changed() when it moves. Runs from before the
 * waits-woken-by-changes patch (wokenByChanges false) use condition() itself.
 */
export class Waits {
  private readonly pending = new Set<() => void>();

  constructor(private readonly wokenByChanges: boolean) {}

  until(ready: () => boolean, timeoutMs?: number): Promise<boolean> {
    if (!this.wokenByChanges) return timeoutMs === undefined ? condition(ready).then(() => true) : condition(ready, timeoutMs);
    if (timeoutMs === undefined) return this.whenReady(ready).then(() => true);
    // The shape of the SDK's condition with a timeout: the timer cancelled once the wait is over.
    return CancellationScope.cancellable(async () => {
      try {
        return await Promise.race([sleep(timeoutMs).then(() => false), this.whenReady(ready).then(() => true)]);
      } finally {
        CancellationScope.current().cancel();
      }
    });
  }

  /** Wakes the waits whose predicate now holds. */
  changed(): void {
    for (const check of [...this.pending]) check();
  }

  private whenReady(ready: () => boolean): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const scope = CancellationScope.current();
      if (scope.consideredCancelled) return void scope.cancelRequested.catch(reject);
      if (ready()) return resolve();
      const check = () => {
        if (!ready()) return;
        this.pending.delete(check);
        resolve();
      };
      this.pending.add(check);
      // Cancelled like a condition: the wait ends with the scope's failure.
      if (scope.cancellable)
        scope.cancelRequested.catch((err: Error) => {
          this.pending.delete(check);
          reject(err);
        });
    });
  }
}
