/**
 * Single flight: concurrent callers asking for the same key share one in-flight promise. The API
 * uses it so that many simultaneous sync-status (or cancel) calls for one payment send one update
 * to its workflow (a workflow accepts at most 10 updates in flight).
 */
export class SingleFlight<T> {
  private readonly inFlight = new Map<string, Promise<T>>();

  run(key: string, work: () => Promise<T>): Promise<T> {
    const existing = this.inFlight.get(key);
    if (existing) return existing;
    const p = work().finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, p);
    return p;
  }
}

/**
 * Coalescing with a trailing run: while work for a key runs, every further caller is folded into
 * one more run after it (never into the running one, which may have looked before their news).
 * A burst costs at most two runs per key, and nothing that happened during the first is missed.
 * Callers of one key must ask for the same work.
 */
interface CoalescedRun {
  /** Settles (never rejects) when the run ends. */
  ended: Promise<void>;
  trailing?: Promise<void>;
}

export class TrailingCoalescer {
  private readonly runs = new Map<string, CoalescedRun>();

  run(key: string, work: () => Promise<void>): Promise<void> {
    const current = this.runs.get(key);
    if (current) return (current.trailing ??= current.ended.then(() => this.run(key, work)));
    const result = work();
    const run: CoalescedRun = { ended: result.then(ignore, ignore) };
    this.runs.set(key, run);
    // Registered before any trailing run's: the key is free again when that one starts.
    void run.ended.then(() => {
      if (this.runs.get(key) === run) this.runs.delete(key);
    });
    return result;
  }
}

const ignore = (): void => undefined;
