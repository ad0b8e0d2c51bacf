import { withFooter } from './event-note-footer';

export function takedownUpdatedNote(input: { incidentId: string; eventRef: string }): string {
  return withFooter(
    ['Takedown processing for this incident changed.'],
    input.incidentId,
    input.eventRef,
  );
}
