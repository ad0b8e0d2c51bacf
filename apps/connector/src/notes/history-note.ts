import { defangLinksIn, plainText } from './defang-text';
import { withFooter } from './event-note-footer';

export interface HistoryNoteInput {
  incidentId: string;
  eventRef: string;
  message: string | undefined;
}

export function historyNote(input: HistoryNoteInput): string {
  const message = input.message?.trim();
  const lines = message
    ? ['Incident update:', plainText(defangLinksIn(message))]
    : ['The incident was updated (no message was given).'];
  return withFooter(lines, input.incidentId, input.eventRef);
}
