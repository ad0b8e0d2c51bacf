import { capNoteBody } from './note-limits';

// Every event note ends with the incident id and the event reference: an agent can quote them to
// the service, and the handler recognises the note it already wrote for an event.
export function eventReferenceLine(eventRef: string): string {
  return `Event: ${eventRef.replace(/\s+/g, ' ')}`;
}

export function eventNoteFooter(incidentId: string, eventRef: string): string {
  return `Incident: ${incidentId}\n${eventReferenceLine(eventRef)}`;
}

export function withFooter(lines: string[], incidentId: string, eventRef: string): string {
  return [capNoteBody(lines.join('\n')), '', eventNoteFooter(incidentId, eventRef)].join('\n');
}
