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
