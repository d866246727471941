/**
 * Counts the calls into the workflow sandbox (docs/benchmark.md, "Trips into the sandbox"): loaded
 * with `--import` into the bench's worker processes only, so nothing else pays for it. The SDK
 * keeps no such counter, and each call costs a vm watchdog thread whatever it does, so the count,
 * not the statements, is what the workflow thread's CPU follows.
 *
 * With the SDK's reusable vm context (the default), every call from the worker into a workflow is
 * one `Script.runInContext` of the same script, with `[holder, function name, args]` set on the
 * context just before it: the function is `initRuntime` (a workflow created), `initialize`,
 * `activate` (one batch of an activation's jobs), `tryUnblockConditions` (condition checks, at
 * least one per batch), `concludeActivation` (exactly one per activation), `dispose`. The holder
 * is one per workflow run, so each call is given to the workflow type its `initRuntime` named.
 * Each thread writes its counts to `${SANDBOX_CALLS_FILE}.<pid>.<thread>.json` (bench/sandboxCalls.ts
 * sums them) a few times a second while they change.
 */
import fs from 'node:fs';
import vm from 'node:vm';
import { threadId } from 'node:worker_threads';

type Counts = Record<string, Record<string, number>>;

const prefix = process.env.SANDBOX_CALLS_FILE;
if (prefix) {
  const counts: Counts = {};
  const typeOf = new WeakMap<object, string>();
  let dirty = false;
  const original = vm.Script.prototype.runInContext;
  vm.Script.prototype.runInContext = function (this: vm.Script, context: vm.Context, options?: vm.RunningScriptOptions) {
    const call = (context as { __temporal_args?: [object, string, unknown[]] }).__temporal_args;
    if (call) {
      const [holder, fn, args] = call;
      if (fn === 'initRuntime') typeOf.set(holder, (args[0] as { info?: { workflowType?: string } })?.info?.workflowType ?? 'unknown');
      const byFn = (counts[typeOf.get(holder) ?? 'unknown'] ??= {});
      byFn[fn] = (byFn[fn] ?? 0) + 1;
      dirty = true;
    }
    return original.call(this, context, options);
  };
  const file = `${prefix}.${process.pid}.${threadId}.json`;
  setInterval(() => {
    if (!dirty) return;
    dirty = false;
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(counts));
    fs.renameSync(`${file}.tmp`, file);
  }, 200).unref();
}
