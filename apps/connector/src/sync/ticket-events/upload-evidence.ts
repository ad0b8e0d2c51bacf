// Ticket attachments to the incident as evidence: each downloaded from its content address (only
// from where the Zendesk client allows, capped while streaming) and attached one file per request.
// Every file that does not make it comes back with the reason in our own words (never an error's
// raw text, which may carry addresses or the service's answer), for the note that tells the agent.
import { APIError, RequestValidationError } from '@incident-desk/incident-api';
import type { TDatabase } from '@incident-desk/db';
import { type AccountContext, type TAttachment, zendeskDownloadFailure } from '../../accounts';
import { defangLinksIn, plainText } from '@incident-desk/threat-text';
import { EN, type NoteTexts, type SkipReason } from '../../notes';
import { forgetEvidenceUpload, recordEvidenceUpload } from '../echo-ledger';
import { checkEvidence, tooLargeReason } from './evidence-files';
import { incidentFailureKind } from '../service-failure';
import { untilStored } from '../until-stored';

export interface SkippedFile {
  fileName: string;
  reason: SkipReason;
}

export interface EvidenceOutcome {
  uploaded: string[];
  skipped: SkippedFile[];
}

/** Long enough for a 50 MB file over a slow link; the default per-attempt timeout is for API calls. */
const DOWNLOAD_TIMEOUT_MS = 5 * 60_000;

export async function uploadEvidence(
  db: TDatabase,
  ctx: AccountContext,
  incidentId: string,
  attachments: readonly TAttachment[],
  now: () => Date,
): Promise<EvidenceOutcome> {
  const outcome: EvidenceOutcome = { uploaded: [], skipped: [] };
  for (const attachment of attachments) {
    const fileName = attachment.file_name;
    const check = await checkEvidence(attachment);
    if (!check.ok) {
      outcome.skipped.push({ fileName, reason: check.reason });
      continue;
    }
    let data: Buffer;
    try {
      ({ data } = await ctx.zendesk.attachments.download(attachment.content_url, {
        maxBytes: check.maxBytes,
        timeoutMs: DOWNLOAD_TIMEOUT_MS,
      }));
    } catch (error) {
      outcome.skipped.push({ fileName, reason: downloadFailure(error, check.maxBytes) });
      continue;
    }
    // recorded first: the incident's history echo of the upload can arrive before the answer.
    // Within a forwarded comment's claim, so a database restart is waited out (until-stored.ts).
    const own = await untilStored(() =>
      recordEvidenceUpload(db, ctx.accountId, incidentId, 1, now()),
    );
    try {
      await ctx
        .incidents()
        .incidents.attach(incidentId, [
          { filename: fileName, content: data, contentType: check.contentType },
        ]);
      outcome.uploaded.push(fileName);
    } catch (error) {
      if (incidentFailureKind(error) !== 'unknown' || error instanceof RequestValidationError)
        await untilStored(() => forgetEvidenceUpload(db, own.id));
      outcome.skipped.push({ fileName, reason: uploadFailure(error, data.length, check.maxBytes) });
    }
  }
  return outcome;
}

/**
 * "name: reason", the name made safe to show in a note (plain, defanged, at most 120 characters),
 * in a note's language; in English (the default) for what the database keeps.
 */
export function describeSkippedFile(file: SkippedFile, t: NoteTexts = EN): string {
  const plain = plainText(file.fileName).replace(/\s+/g, ' ').trim();
  const shown = plain.length > 120 ? `${plain.slice(0, 119)}…` : plain;
  return t.evidence.file(defangLinksIn(shown) || t.evidence.noName, t.evidence.skip(file.reason));
}

function downloadFailure(error: unknown, maxBytes: number): SkipReason {
  const failure = zendeskDownloadFailure(error);
  switch (failure.kind) {
    case 'too_large':
      return tooLargeReason(failure.size, maxBytes);
    case 'refused':
      // notes' AttachmentRefusal must name every refusal Zendesk's client knows: a new one fails here
      return { kind: 'download_refused', refusal: failure.refusal };
    case 'gone':
      return { kind: 'download_gone' };
    case 'answered':
      return { kind: 'download_answered', status: failure.status };
    case 'timed_out':
      return { kind: 'download_timed_out' };
    case 'unreachable':
      return { kind: 'download_unreachable' };
    case 'bad_address':
      return { kind: 'download_bad_address' };
    case 'failed':
      return { kind: 'download_failed' };
  }
}

function uploadFailure(error: unknown, size: number, maxBytes: number): SkipReason {
  if (error instanceof RequestValidationError) return tooLargeReason(size, maxBytes);
  const status = error instanceof APIError ? error.status : null;
  switch (incidentFailureKind(error)) {
    case 'not_acted':
      return { kind: 'upload_unavailable', status };
    case 'unknown':
      return { kind: 'upload_unknown', status };
    case 'rejected':
      return { kind: 'upload_refused', status };
  }
}
