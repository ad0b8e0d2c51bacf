// A write recognised by its note rather than its audit (an update_many item, whose metadata Zendesk
// does not document to reach the audit; or a token without the global `read` scope audits need) is
// found among the ticket's comments (tickets:read) by identity, never by a mark in its text. A
// comment is that write's note when all of these hold:
// - its author is the user the connector's token acts as (users/me): the connector names no other;
// - it came through the API (`via.channel` api): an agent typing or pasting it in the workspace
//   comes through `web`;
// - it was made since the write was marked to be sent (less the clocks' skew): an older comment
//   saying the same is another write's;
// - its text is exactly the note the connector composed and recorded before sending (compared by
//   digest, in normalizeText's form, as Zendesk may re-wrap whitespace);
// and one comment is the note of one write at most. Zendesk documents a comment's `metadata` as
// system data and flags, not the update's custom metadata, so no reference is looked for there.
// Writes an earlier version sent (no recorded note) ended their note with a short reference line:
// that line is still looked for, for those writes alone.
import { createHash } from 'node:crypto';
import type { TComment } from '@incident-desk/zendesk-api';
import type { AccountContext } from '../../accounts';
import { normalizeText } from '../../notes';

/** Zendesk dates a comment by its own clock, the connector a send by its own. */
const NOTE_CLOCK_SKEW_MS = 60_000;

/** What a write recorded of its note before it was sent. */
export interface NoteWrite {
  ref: string;
  /** `noteDigest` of its note; null for a write an earlier version sent. */
  digest: string | null;
  sentAt: Date | null;
}

/** The digest a write records of its note, and by which its comment is recognised. */
export function noteDigest(body: string): string {
  return createHash('sha256').update(normalizeText(body)).digest('hex');
}

/** The references of the writes whose note is on the ticket. */
export async function writesFoundByNote(
  ctx: AccountContext,
  ticketId: number,
  writes: readonly NoteWrite[],
): Promise<Set<string>> {
  const found = new Set<string>();
  const waiting = writes
    .filter((write) => write.digest !== null && write.sentAt !== null)
    .map((write) => ({ ...write, since: write.sentAt!.getTime() - NOTE_CLOCK_SKEW_MS }))
    .sort((a, b) => b.since - a.since);
  const earlierVersions = writes.filter((write) => write.digest === null);
  if (waiting.length === 0 && earlierVersions.length === 0) return found;
  const oldest = Math.min(...waiting.map((write) => write.since));
  let ownUserId: number | undefined;
  const isOwn = async (comment: TComment) =>
    (viaChannel(comment) ?? 'api') === 'api' &&
    comment.author_id === (ownUserId ??= (await ctx.zendesk.users.me()).id);

  const newest = await ctx.zendesk.tickets.comments.list(ticketId, {
    sortOrder: 'desc',
    includeUsers: false,
  });
  let firstPage = true;
  for await (const page of newest.pages()) {
    for (const comment of page.getItems()) {
      const text = comment.body ?? comment.plain_body ?? '';
      // as earlier versions looked for them: in the newest page of comments
      if (firstPage)
        for (const write of earlierVersions)
          if (carriesReferenceLine(text, write.ref)) found.add(write.ref);
      const at = Date.parse(comment.created_at ?? '');
      // newest first: every comment after this one is older still
      if (at < oldest && (!firstPage || earlierVersions.length === 0)) return found;
      const digest = noteDigest(text);
      const index = waiting.findIndex((write) => write.digest === digest && at >= write.since);
      if (index === -1 || !(await isOwn(comment))) continue;
      found.add(waiting[index]!.ref);
      waiting.splice(index, 1);
    }
    if (waiting.length === 0) return found;
    firstPage = false;
  }
  return found;
}

function viaChannel(comment: TComment): string | undefined {
  const via = comment.via as { channel?: unknown } | null | undefined;
  return typeof via?.channel === 'string' ? via.channel : undefined;
}

/**
 * The line an earlier version ended such a note with (`incident-desk · ref` and the reference's
 * first 8 hex digits), or the full reference of the footer before it (`… · ref <uuid>`).
 */
function carriesReferenceLine(text: string, ref: string): boolean {
  const short = ref.replace(/-/g, '').slice(0, 8);
  return text.includes(`incident-desk · ref ${short}`) || text.includes(`ref ${ref}`);
}
