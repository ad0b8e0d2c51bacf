// What a ticket write carries besides what the agent reads: the write's reference (by which a
// retry after a crash, a 5xx or a timeout finds whether Zendesk committed it) and the incident
// events it applies. Both go in the update's audit metadata (`ticket.metadata`, kept on the audit as
// `metadata.custom`, never shown to agents), read back with GET /tickets/{id}/audits.
//
// A write whose audit cannot be read back later (an update_many item, whose metadata Zendesk does
// not document; or an account whose token lacks the global `read` scope audits need) is recognised
// by its note instead, by identity (note-identity.ts): the note itself carries nothing of this.
import { createHash } from 'node:crypto';

/** The key of the connector's data in an audit's custom metadata. */
const METADATA_KEY = 'incident_desk';

/** Zendesk: "you can add up to 1 kilobyte of custom metadata" per audit. */
const MAX_METADATA_BYTES = 1024;

/** Longer event ids are carried as a digest, so any one of them fits. */
const EVENT_REF_MAX_CHARS = 100;

export interface WriteMetadata {
  /** The write's reference (a UUID): what a retry looks for. */
  ref?: string;
  /** The incident events the write applies, once each (as `eventRefInMetadata` gives them). */
  events?: string[];
  /** The event that opened a detected incident's ticket, when its news is written afterwards. */
  openedBy?: string;
}

/** An event id as the metadata carries it: itself, or `sha256:` and a digest when very long. */
function eventRefInMetadata(ref: string): string {
  if (ref.length <= EVENT_REF_MAX_CHARS) return ref;
  return `sha256:${createHash('sha256').update(ref).digest('hex').slice(0, 32)}`;
}

/** The `metadata` of a ticket create or update. */
export function writeMetadata(data: WriteMetadata): Record<string, unknown> {
  return {
    [METADATA_KEY]: {
      ...(data.ref === undefined ? {} : { ref: data.ref }),
      ...(data.events === undefined ? {} : { events: data.events.map(eventRefInMetadata) }),
      ...(data.openedBy === undefined ? {} : { opened_by: eventRefInMetadata(data.openedBy) }),
    },
  };
}

function metadataBytes(data: WriteMetadata): number {
  return Buffer.byteLength(JSON.stringify(writeMetadata(data)));
}

/**
 * How many of the changes (oldest first) one write can carry so that its metadata stays within
 * Zendesk's 1 KB: at least one.
 */
export function changesThatFit(ref: string, eventRefs: readonly string[]): number {
  let count = 1;
  while (
    count < eventRefs.length &&
    metadataBytes({ ref, events: eventRefs.slice(0, count + 1) }) <= MAX_METADATA_BYTES
  )
    count += 1;
  return count;
}

/** The connector's data in an audit's `metadata.custom`, or null when it holds none. */
export function writeMetadataOf(custom: unknown): WriteMetadata | null {
  if (typeof custom !== 'object' || custom === null) return null;
  const data = (custom as Record<string, unknown>)[METADATA_KEY];
  if (typeof data !== 'object' || data === null) return null;
  const record = data as Record<string, unknown>;
  const events = Array.isArray(record.events)
    ? record.events.filter((event): event is string => typeof event === 'string')
    : undefined;
  return {
    ...(typeof record.ref === 'string' ? { ref: record.ref } : {}),
    ...(events ? { events } : {}),
    ...(typeof record.opened_by === 'string' ? { openedBy: record.opened_by } : {}),
  };
}

/** The incident events an audit says its update applied. */
export function eventRefsOfAudit(audit: { metadata?: { custom?: unknown } | null }): string[] {
  return writeMetadataOf(audit.metadata?.custom)?.events ?? [];
}
