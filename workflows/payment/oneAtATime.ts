/**
 * Local activities of one run, one at a time. The SDK hands a run the results of local
 * activities in flight together in the order they finished when it first runs, but in the order
 * they were scheduled when it replays; concurrent handlers (a burst of refund updates) then resume
 * in another order and issue their commands in another order, and the replay fails with a
 * nondeterminism error. With one in flight at a time, both orders are the same.
 */
export type Serialize = <R>(call: () => Promise<R>) => Promise<R>;

export function oneAtATime(): Serialize {
  let tail: Promise<unknown> = Promise.resolve();
  return <R>(call: () => Promise<R>): Promise<R> => {
    const result = tail.then(call);
    tail = result.catch(() => undefined);
    return result;
  };
}

/** The same activity functions, each call waiting for the one before it to finish. */
export function serialized<T extends object>(activities: T, serialize: Serialize): T {
  return new Proxy(activities, {
    get(target, name) {
      const fn = (target as Record<string | symbol, unknown>)[name];
      if (typeof fn !== 'function') return fn;
      return (...args: unknown[]) => serialize(() => (fn as (...a: unknown[]) => Promise<unknown>)(...args));
    },
  });
}
