// The one note a coalesced ticket update carries: every incident change waiting for the ticket,
// in order, written for an agent. A status change and the history entry that accompanies it read
// as one change; a burst of takedown updates (blocklist, attempt, snapshot) reads as one line.
// Event ids and the write's reference go in one compact footer line, which also lets a retried
// write find the note it may already have made.
import { plainText } from '@incident-desk/threat-text';
import { capNoteBody, NOTE_MESSAGE_MAX_CHARS, notePlain, noteText } from './note-limits';
import { statusLabel, statusMeaning } from '@incident-desk/incident-api';

export type ChangeEntry =
  | { kind: 'status'; status: string | null; supersededBy?: string | null }
  | { kind: 'history'; message: string | null }
  | { kind: 'takedown' }
  | { kind: 'action_required'; reason: string | null; reopened: boolean };

export interface NoteChange {
  incidentId: string;
  eventRef: string;
  eventAt: Date;
  entry: ChangeEntry;
}

/** A history entry this close to a status change of the same incident is its companion. */
export const COMPANION_PAIRING_MS = 60_000;

const NEXT_STEP: Record<string, string> = {
  approval_required:
    'Next step: approve the takedown with "Approve takedown" in the incident-desk sidebar, or reply if it should not go ahead.',
  action_required:
    'Next step: do what the analyst asks, then answer with a public reply on this ticket (it reaches the analyst) or from the sidebar.',
};

export function writeReferenceLine(writeRef: string): string {
  return `ref ${writeRef}`;
}

function text(value: string): string {
  return noteText(value, NOTE_MESSAGE_MAX_CHARS);
}

interface Paragraph {
  lines: string[];
}

function statusParagraph(
  status: string | null,
  message: string | null,
  superseded?: string | null,
): Paragraph {
  const lines: string[] = [];
  if (status === null) {
    lines.push('Status changed (the new status was not given).');
  } else {
    lines.push(`Status: ${notePlain(statusLabel(status))}`);
    const meaning = statusMeaning(status);
    if (meaning) lines.push(meaning);
  }
  if (message) lines.push(`Analyst: ${text(message)}`);
  if (superseded !== undefined) {
    lines.push(
      `This change is older than one already shown; the Status field stays ${superseded ? notePlain(statusLabel(superseded)) : 'as it is'}.`,
    );
  } else if (status !== null && NEXT_STEP[status]) {
    lines.push(NEXT_STEP[status]!);
  }
  return { lines };
}

/** Renders the note body (without the marker) for the changes, oldest first. */
export function incidentChangeNote(
  changes: NoteChange[],
  writeRef: string,
  dashboardUrl?: string,
): string {
  const ordered = [...changes].sort((a, b) => a.eventAt.getTime() - b.eventAt.getTime());
  const used = new Set<number>();
  const paragraphs: Paragraph[] = [];
  let statuses = 0;

  // a history entry pairs with the nearest unpaired status change of the same incident
  const companionOf = new Map<number, number>();
  ordered.forEach((change, index) => {
    if (change.entry.kind !== 'history' || !change.entry.message) return;
    let best: number | undefined;
    ordered.forEach((other, otherIndex) => {
      if (other.entry.kind !== 'status' || other.incidentId !== change.incidentId) return;
      if ([...companionOf.values()].includes(otherIndex)) return;
      const gap = Math.abs(other.eventAt.getTime() - change.eventAt.getTime());
      if (gap > COMPANION_PAIRING_MS) return;
      if (
        best === undefined ||
        gap < Math.abs(ordered[best]!.eventAt.getTime() - change.eventAt.getTime())
      )
        best = otherIndex;
    });
    if (best !== undefined) companionOf.set(index, best);
  });
  const messageFor = new Map<number, string>();
  for (const [history, status] of companionOf) {
    const entry = ordered[history]!.entry;
    if (entry.kind === 'history' && entry.message) messageFor.set(status, entry.message);
    used.add(history);
  }

  for (let index = 0; index < ordered.length; index += 1) {
    if (used.has(index)) continue;
    const { entry } = ordered[index]!;
    switch (entry.kind) {
      case 'status':
        statuses += 1;
        paragraphs.push(
          statusParagraph(entry.status, messageFor.get(index) ?? null, entry.supersededBy),
        );
        break;
      case 'history':
        paragraphs.push({
          lines: [entry.message ? `Analyst: ${text(entry.message)}` : 'The incident was updated.'],
        });
        break;
      case 'takedown': {
        let count = 1;
        while (ordered[index + count]?.entry.kind === 'takedown') {
          used.add(index + count);
          count += 1;
        }
        paragraphs.push({
          lines: [
            count === 1
              ? 'Takedown progress changed (blocklist listings, takedown attempts or snapshots); the sidebar shows the details.'
              : `Takedown progress changed ${count} times (blocklist listings, takedown attempts or snapshots); the sidebar shows the details.`,
          ],
        });
        break;
      }
      case 'action_required': {
        const lines = [
          'Action required: the analyst is waiting for your organisation.',
          entry.reason
            ? `Request: ${text(entry.reason)}`
            : 'No reason was given; the incident in the sidebar says more.',
          NEXT_STEP.action_required!,
        ];
        if (!entry.reopened)
          lines.push('A newer update was already shown, so the ticket status was left as it is.');
        paragraphs.push({ lines });
        break;
      }
    }
  }

  const incidents = [...new Set(ordered.map((change) => change.incidentId))];
  const title =
    paragraphs.length === 1 && statuses <= 1
      ? 'Incident update'
      : `Incident updates (${paragraphs.length})`;
  const body =
    paragraphs.length === 1
      ? paragraphs[0]!.lines
      : paragraphs.flatMap((paragraph, i) => [
          ...(i === 0 ? [] : ['']),
          ...paragraph.lines.map((line, j) => (j === 0 ? `• ${line}` : `  ${line}`)),
        ]);
  const footer = [
    `incident ${incidents.map(plainText).join(', ')}`,
    `events ${ordered.map((change) => plainText(change.eventRef.replace(/\s+/g, ' '))).join(' ')}`,
    writeReferenceLine(writeRef),
  ].join(' · ');
  const content = capNoteBody(
    [title, '', ...body, ...(dashboardUrl ? ['', `Dashboard: ${dashboardUrl}`] : [])].join('\n'),
  );
  // the footer is never cut: a retried write finds its note by it
  return `${content}\n\n— ${footer}`;
}

/**
 * The event references a connector note names: the footer of a coalesced note
 * ("— incident … · events a b · ref …"), or the "Event: …" line of a ticket's first note.
 */
export function eventRefsInNote(note: string): string[] {
  const refs: string[] = [];
  for (const line of note.split('\n')) {
    if (line.startsWith('Event: ')) refs.push(line.slice('Event: '.length).trim());
    if (line.startsWith('— ')) {
      const part = line
        .slice(2)
        .split(' · ')
        .find((piece) => piece.startsWith('events '));
      if (part) refs.push(...part.slice('events '.length).split(' ').filter(Boolean));
    }
  }
  return refs;
}
