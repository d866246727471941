import { dueView } from '../../disputes/due';
import { useNow, useReminderHours } from '../../disputes/useDisputeClock';
import { when } from '../ui';

/**
 * A dispute's due date, with how urgent it is in words and colour: within the reminder window
 * amber (`due in 4 h 59 min`), past due or EXPIRED red (`overdue by 3 min`, `expired unanswered`).
 */
export function DueTag({ dispute }: { dispute: { status: string; dueBy: string } }) {
  const view = dueView(dispute, useNow(), useReminderHours());
  return (
    <span className={`due due-${view.kind}`} data-due={view.kind}>
      <span className="due-date">{when(dispute.dueBy)}</span>
      {view.text && <span className="due-text">{view.text}</span>}
    </span>
  );
}
