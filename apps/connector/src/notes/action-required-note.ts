import { defangLinksIn, plainText } from './defang-text';
import { withFooter } from './event-note-footer';

export interface ActionRequiredNoteInput {
  incidentId: string;
  eventRef: string;
  /** data.waitForClient when it is a non-empty string. */
  reason: string | undefined;
  /** False when an already applied newer event keeps the ticket where it is. */
  reopened: boolean;
}

export function actionRequiredNote(input: ActionRequiredNoteInput): string {
  const reason = input.reason?.trim();
  const lines = [
    'The incident service needs action from you.',
    reason
      ? `Reason: ${plainText(defangLinksIn(reason))}`
      : 'No reason was given; check the incident in the dashboard.',
  ];
  if (!input.reopened)
    lines.push('A newer update was already applied, so the ticket status was left as it is.');
  return withFooter(lines, input.incidentId, input.eventRef);
}
