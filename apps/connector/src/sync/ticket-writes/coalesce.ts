// Every change waiting for one ticket becomes one update: one note listing the incident changes in
// order (in the account's language), the newest Status field value, the merged tags, the newest
// ticket status, and in its audit metadata the write's reference and the events it applies
// (write-metadata.ts). Rule 3 was applied when each change was recorded (an older status event
// carries no status value), so the newest value here is never behind what the ticket already shows.
import type { TTicketUpdateInput } from '@incident-desk/zendesk-api';
import type { AccountContext } from '../../accounts';
import { type ChangeEntry, incidentChangeNote, type NoteChange, noteTexts } from '../../notes';
import { statusOptionValue } from '../../setup';
import { markNote } from './send-ticket-update';
import { writeMetadata } from './write-metadata';

export interface WaitingChange {
  id: string;
  incidentId: string;
  eventRef: string;
  eventAt: Date;
  createdAt: Date;
  /** When the connector received the event, when known (event-to-note latency). */
  receivedAt?: Date | null;
  entry: unknown;
  statusValue: string | null;
  ticketStatus: string | null;
  addTags: string[];
}

export interface CoalescedUpdate {
  /** The marked note body, or undefined when no change has anything to tell. */
  body: string | undefined;
  /** Empty when there is nothing to write (no note, no field, tag or status). */
  input: TTicketUpdateInput;
}

export interface CoalesceOptions {
  /** The incident's dashboard page, linked at the end of the note. */
  dashboardUrl?: string | null | undefined;
}

function newest<T>(
  changes: WaitingChange[],
  pick: (change: WaitingChange) => T | null,
): T | undefined {
  let found: { at: number; value: T } | undefined;
  for (const change of changes) {
    const value = pick(change);
    if (value === null) continue;
    const at = change.eventAt.getTime();
    if (found === undefined || at >= found.at) found = { at, value };
  }
  return found?.value;
}

export function coalesce(
  ctx: AccountContext,
  changes: WaitingChange[],
  writeRef: string,
  options: CoalesceOptions = {},
): CoalescedUpdate {
  const ordered = [...changes].sort(
    (a, b) =>
      a.eventAt.getTime() - b.eventAt.getTime() || a.createdAt.getTime() - b.createdAt.getTime(),
  );
  const noteChanges: NoteChange[] = ordered
    .filter((change) => change.entry !== null)
    .map((change) => ({
      incidentId: change.incidentId,
      eventAt: change.eventAt,
      entry: change.entry as ChangeEntry,
    }));
  const note =
    noteChanges.length === 0
      ? undefined
      : incidentChangeNote(
          noteChanges,
          noteTexts(ctx.noteLocale),
          options.dashboardUrl ?? undefined,
        );
  const body = note === undefined ? undefined : markNote(note);
  const statusValue = newest(ordered, (change) => change.statusValue);
  // The Status drop-down takes the status's option value; a status it has no option for (one this
  // version does not know) would make Zendesk refuse the whole update, so the field is left as it
  // is and the note still goes.
  const statusOption = statusValue === undefined ? undefined : statusOptionValue(statusValue);
  const ticketStatus = newest(ordered, (change) => change.ticketStatus);
  const tags = [...new Set(ordered.flatMap((change) => change.addTags))];
  const input: TTicketUpdateInput = {
    ...(body === undefined ? {} : { comment: { body, public: false } }),
    ...(statusOption !== undefined && ctx.fields.status !== null
      ? { custom_fields: [{ id: ctx.fields.status, value: statusOption }] }
      : {}),
    ...(tags.length ? { additional_tags: tags } : {}),
    ...(ticketStatus !== undefined ? { status: ticketStatus as TTicketUpdateInput['status'] } : {}),
  };
  // Metadata alone changes nothing on the ticket (Zendesk keeps no audit then): an update with
  // nothing else is not sent at all.
  if (Object.keys(input).length === 0) return { body, input };
  return {
    body,
    input: {
      ...input,
      metadata: writeMetadata({ ref: writeRef, events: ordered.map((change) => change.eventRef) }),
    },
  };
}
