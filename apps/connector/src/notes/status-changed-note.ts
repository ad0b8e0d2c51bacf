import { withFooter } from './event-note-footer';
import { plainText } from './defang-text';

export interface StatusChangedNoteInput {
  incidentId: string;
  eventRef: string;
  status: string | undefined;
  /** Set when the event is older than the last one applied: the note is history only. */
  supersededBy?: string | null | undefined;
}

export function statusChangedNote(input: StatusChangedNoteInput): string {
  const status = input.status ? plainText(input.status) : undefined;
  const lines = [
    status
      ? `Incident status changed to ${status}.`
      : 'Incident status changed (the new status was not given).',
  ];
  if (input.supersededBy !== undefined) {
    lines.push(
      `This change is older than one already applied; the Status field stays ${input.supersededBy ? plainText(input.supersededBy) : 'as it is'}.`,
    );
  }
  return withFooter(lines, input.incidentId, input.eventRef);
}
