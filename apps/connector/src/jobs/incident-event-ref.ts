// An incident event's one reference: the receiver's dedupe key (after the account) and the job's
// event ref (pending_ticket_change, the write's audit metadata) are both this. The envelope id when
// it carries one; otherwise a digest of the envelope as it is stored and queued (storable strings,
// keys in sorted order), so the receiver, reading the parsed body, and the job, reading the queued
// copy (whose keys the database may have reordered), compute the same digest.
import { createHash } from 'node:crypto';
import { storableJson, storableText } from '../ingest';

/** The digest's length in hex characters (128 bits). */
const DIGEST_HEX_CHARS = 32;

function sortedKeysJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedKeysJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${sortedKeysJson(record[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The envelope's id when it is a non-blank string, else `sha256:` and a digest of the envelope.
 * Throws UnstorableDeliveryError for an envelope nested too deep to be stored.
 */
export function incidentEventRef(envelope: Readonly<Record<string, unknown>>): string {
  const id = envelope.id;
  if (typeof id === 'string' && id.trim() !== '') return storableText(id);
  const stored = storableJson(envelope).value;
  const digest = createHash('sha256').update(sortedKeysJson(stored)).digest('hex');
  return `sha256:${digest.slice(0, DIGEST_HEX_CHARS)}`;
}
