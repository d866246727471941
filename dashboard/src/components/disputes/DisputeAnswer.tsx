import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { acceptDispute, submitDispute, updateDisputeEvidence, type Dispute } from '@in-store-payments/client';
import { EVIDENCE_TEXT_MAX } from '../../../../core/dispute/statuses';
import { hiddenCharacters } from '../../disputes/visibleText';
import { refusalWords } from '../../disputes/words';
import { money } from '../ui';
import { ConfirmDialog } from './ConfirmDialog';

/**
 * The answer of ADMIN and COMPLIANCE while the dispute is NEEDS_RESPONSE (docs/disputes.md, "The merchant's answers"): the
 * statement (`Statement`, 1-20000 characters, *Save statement*), then *Submit evidence* or *Accept
 * dispute*, each confirmed in a dialog (*Confirm submit*, *Confirm accept*). The acquirer receives
 * the saved statement, so Submit waits until the text typed is saved. Refusals in words.
 */
export function DisputeAnswer({ dispute }: { dispute: Dispute }) {
  const saved = dispute.evidence.text ?? '';
  const [draft, setDraft] = useState(saved);
  const [asking, setAsking] = useState<'submit' | 'accept' | null>(null);
  const client = useQueryClient();
  const settle = async (next: Dispute) => {
    client.setQueryData(['dispute', dispute.id], next);
    await client.invalidateQueries({ queryKey: ['disputes'] });
    await client.invalidateQueries({ queryKey: ['payment', dispute.paymentId] });
  };
  const save = useMutation({
    mutationFn: async () => (await updateDisputeEvidence({ path: { id: dispute.id }, body: { text: draft } })).data,
    onSuccess: settle,
  });
  const answer = useMutation({
    mutationFn: async (what: 'submit' | 'accept') =>
      what === 'submit' ? (await submitDispute({ path: { id: dispute.id } })).data : (await acceptDispute({ path: { id: dispute.id } })).data,
    onSuccess: settle,
    onSettled: () => setAsking(null),
  });

  const unsaved = draft !== saved;
  const tooLong = draft.length > EVIDENCE_TEXT_MAX;
  const invisible = hiddenCharacters(draft);
  const busy = save.isPending || answer.isPending;
  const error = save.error ?? answer.error;

  return (
    <div className="answer">
      <form
        className="statement"
        onSubmit={(e) => {
          e.preventDefault();
          answer.reset();
          save.mutate();
        }}
      >
        <label>
          Statement
          <textarea
            value={draft}
            rows={10}
            maxLength={EVIDENCE_TEXT_MAX}
            aria-describedby="statement-count"
            aria-invalid={tooLong}
            placeholder="What happened, in the merchant's words: what was sold, how it was handed over, any contact with the cardholder."
            onChange={(e) => setDraft(e.target.value)}
          />
        </label>
        <div className="statement-foot">
          <span id="statement-count" className={tooLong ? 'field-error' : 'muted'}>
            {draft.length} / {EVIDENCE_TEXT_MAX} characters
          </span>
          {unsaved && <span className="unsaved">Unsaved changes</span>}
          {!unsaved && saved && <span className="muted">Saved</span>}
        </div>
        {invisible.length > 0 && (
          <p className="note" role="note">
            The statement contains invisible characters, shown elsewhere as {invisible.join(' ')}. They are kept as typed.
          </p>
        )}
        <div className="actions">
          <button type="submit" disabled={busy || !unsaved || draft.length === 0 || tooLong}>
            Save statement
          </button>
        </div>
      </form>

      <div className="actions answer-buttons">
        <button
          type="button"
          disabled={busy || unsaved}
          onClick={() => {
            save.reset();
            answer.reset();
            setAsking('submit');
          }}
        >
          Submit evidence
        </button>
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() => {
            save.reset();
            answer.reset();
            setAsking('accept');
          }}
        >
          Accept dispute
        </button>
        {unsaved && <span className="muted">Save the statement first: the saved statement is what the acquirer receives.</span>}
      </div>
      {error && (
        <p className="error" role="alert">
          {refusalWords(error)}
        </p>
      )}

      {asking === 'submit' && (
        <ConfirmDialog
          title="Submit the evidence?"
          confirmLabel="Confirm submit"
          busy={answer.isPending}
          onConfirm={() => answer.mutate('submit')}
          onCancel={() => setAsking(null)}
        >
          <p>
            The saved statement ({saved.length} characters) and the assembled transaction go to the acquirer, and the card scheme decides. The dispute becomes
            UNDER_REVIEW; neither can be changed afterwards.
          </p>
        </ConfirmDialog>
      )}
      {asking === 'accept' && (
        <ConfirmDialog
          title="Accept the dispute?"
          confirmLabel="Confirm accept"
          busy={answer.isPending}
          onConfirm={() => answer.mutate('accept')}
          onCancel={() => setAsking(null)}
        >
          <p>
            The business gives up {money(dispute.amount, dispute.currency)}: the cardholder keeps the money and the dispute is closed as ACCEPTED. This cannot
            be undone.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
