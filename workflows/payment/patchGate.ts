import { patched } from '@temporalio/workflow';
import { EPOCHS, type Epoch, type Patch } from './patches';

/**
 * Which patches a run takes (patches.ts): a run that took an epoch takes every patch the epoch
 * includes without a marker of its own; any other patch, and every patch of a run from before
 * the epochs, is answered by its own marker (`patched()`). Made once, as the run starts: the
 * SDK gives no final answer for a marker missing during replay, so the epoch is looked up once and
 * kept for the run.
 */
export class PatchGate {
  /** The newest epoch this run took: a new run takes the newest; a run from before them, none. */
  readonly epoch: Epoch | undefined = EPOCHS.find((e) => patched(e.id));

  takes(p: Patch): boolean {
    return this.epoch?.includes.includes(p.id) || patched(p.id);
  }
}
