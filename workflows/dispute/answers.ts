import { ApplicationFailure, condition, setHandler } from '@temporalio/workflow';
import {
  acceptDisputeUpdate,
  disputeNudgeSignal,
  disputeStateQuery,
  type DisputeOutcome,
  saveDisputeEvidenceUpdate,
  submitDisputeUpdate,
} from '../../core/dispute/messages';
import { acceptRefusal, evidenceRefusal, submitRefusal } from '../../core/dispute/rules';
import { EVIDENCE_TEXT_MAX } from '../../core/dispute/statuses';
import { attempt, refused } from '../payment/calls';
import type { Refusal } from '../../core/payment/rules';
import { type DisputeRun, nowIso } from './run';

/**
 * The merchant's answers (updates: each validated by the rules of core/dispute/rules.ts against
 * the run's state before anything enters history) and the acquirer's nudges (a signal: only a
 * reason to re-read it).
 */
export function registerDisputeHandlers(run: DisputeRun): void {
  setHandler(disputeStateQuery, () => ({ status: run.state.status, reminded: run.state.reminded, hasStatement: run.hasStatement }));

  setHandler(disputeNudgeSignal, () => {
    run.nudged = true;
  });

  setHandler(
    saveDisputeEvidenceUpdate,
    async ({ text }) => {
      // Decided again as the handler starts: the grant check (workflows/grantCheck.ts) may have awaited since the validator ran.
      const refusal = evidenceRefusal(run.facts(), run.inFlight(), Date.now());
      if (refusal) throw refused(refusal);
      run.savingStatements++; // before any await: a submission waits for it
      try {
        await condition(() => run.opened);
        await run.effects.recordDisputeStatement({ disputeId: run.disputeId, text });
        run.hasStatement = true;
      } finally {
        run.savingStatements--;
      }
      return outcome(run);
    },
    {
      validator: (request) => {
        const text = request?.text;
        if (typeof text !== 'string' || text.length < 1 || text.length > EVIDENCE_TEXT_MAX) {
          throw refused({ code: 'invalid', message: `text: must be 1-${EVIDENCE_TEXT_MAX} characters` });
        }
        const refusal = evidenceRefusal(run.facts(), run.inFlight(), Date.now());
        if (refusal) throw refused(refusal);
      },
    },
  );

  setHandler(
    submitDisputeUpdate,
    () =>
      answer(
        run,
        'submit',
        () => submitRefusal(run.facts(), run.inFlight(), Date.now()),
        async () => {
          const sent = await attempt(run.acquirer.submitDisputeToAcquirer({ disputeId: run.disputeId }));
          if (sent.kind === 'rejected')
            throw refused({ code: 'conflict', message: `submit not permitted: the acquirer refused it: ${sent.message ?? 'no reason given'}` });
          if (sent.kind === 'noAnswer') throw unavailable('the acquirer did not answer; submit again (the acquirer takes one submission per dispute)');
          await run.apply({ type: 'SUBMITTED', at: nowIso() });
        },
      ),
    {
      validator: () => {
        const refusal = submitRefusal(run.facts(), run.inFlight(), Date.now());
        if (refusal) throw refused(refusal);
      },
    },
  );

  setHandler(
    acceptDisputeUpdate,
    () =>
      answer(
        run,
        'accept',
        () => acceptRefusal(run.facts(), run.inFlight(), Date.now()),
        async () => {
          const sent = await attempt(run.acquirer.acceptDisputeAtAcquirer({ disputeId: run.disputeId }));
          if (sent.kind === 'rejected')
            throw refused({ code: 'conflict', message: `accept not permitted: the acquirer refused it: ${sent.message ?? 'no reason given'}` });
          if (sent.kind === 'noAnswer') throw unavailable('the acquirer did not answer; accept again');
          await run.apply({ type: 'ACCEPTED', at: nowIso() });
        },
      ),
    {
      validator: () => {
        const refusal = acceptRefusal(run.facts(), run.inFlight(), Date.now());
        if (refusal) throw refused(refusal);
      },
    },
  );
}

/** One answer at a time: marked before any await (a second answer's validator refuses), sent once the run has opened and statements are written. */
async function answer(run: DisputeRun, what: 'submit' | 'accept', rule: () => Refusal | undefined, send: () => Promise<void>): Promise<DisputeOutcome> {
  // Decided again as the handler starts: the grant check (workflows/grantCheck.ts) may have awaited since the validator ran.
  const refusal = rule();
  if (refusal) throw refused(refusal);
  run.answering = true;
  try {
    await condition(() => run.opened && run.savingStatements === 0);
    run.attempted = what;
    await send();
  } finally {
    run.answering = false;
  }
  return outcome(run);
}

const outcome = (run: DisputeRun): DisputeOutcome => ({ status: run.state.status });

const unavailable = (message: string) => ApplicationFailure.create({ type: 'unavailable', message, nonRetryable: true });
