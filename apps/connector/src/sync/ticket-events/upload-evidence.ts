// Ticket attachments to the incident as evidence: each downloaded from its content address (only
// from where the Zendesk client allows, capped while streaming) and attached one file per request.
// Every file that does not make it comes back with the reason in our own words (never an error's
// raw text, which may carry addresses or the service's answer), for the note that tells the agent.
import { APIError, RequestValidationError } from '@incident-desk/incident-api';
import {
  ZendeskApiError,
  ZendeskAttachmentRefusedError,
  ZendeskAttachmentTooLargeError,
  ZendeskConnectionError,
  ZendeskRecordNotFoundError,
  ZendeskRequestValidationError,
  ZendeskTimeoutError,
  type TAttachment,
  type TAttachmentRefusal,
} from '@incident-desk/zendesk-api';
import type { TDatabase } from '@incident-desk/db';
import type { AccountContext } from '../../accounts/account-context';
import { defangLinksIn, plainText } from '@incident-desk/threat-text';
import { forgetOwnEvidenceUpload, recordOwnEvidenceUpload } from '../own-evidence-uploads';
import { checkEvidence, tooLargeReason } from './evidence-files';
import { incidentFailureKind } from '../../http/service-failure';
import { untilStored } from '../until-stored';

export interface SkippedFile {
  fileName: string;
  reason: string;
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
      recordOwnEvidenceUpload(db, ctx.accountId, incidentId, 1, now()),
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
        await untilStored(() => forgetOwnEvidenceUpload(db, own.id));
      outcome.skipped.push({ fileName, reason: uploadFailure(error, data.length, check.maxBytes) });
    }
  }
  return outcome;
}

/** "name: reason", the name made safe to show in a note (plain, defanged, at most 120 characters). */
export function describeSkippedFile(file: SkippedFile): string {
  const plain = plainText(file.fileName).replace(/\s+/g, ' ').trim();
  const shown = plain.length > 120 ? `${plain.slice(0, 119)}…` : plain;
  return `${defangLinksIn(shown) || '(no name)'}: ${file.reason}`;
}

const REFUSED: Record<TAttachmentRefusal, string> = {
  host_not_allowed:
    "its download address is neither this account's Zendesk nor one of Zendesk's attachment hosts, so it was not fetched",
  not_https: 'its download address does not use HTTPS, so it was not fetched',
  private_address:
    'its download address leads to a private or local network address, so it was not fetched',
  too_many_redirects: 'its download was redirected too many times',
  bad_redirect: 'its download was redirected to an address that is not a web address',
};

function downloadFailure(error: unknown, maxBytes: number): string {
  if (error instanceof ZendeskAttachmentTooLargeError) return tooLargeReason(error.size, maxBytes);
  if (error instanceof ZendeskAttachmentRefusedError) return REFUSED[error.reason];
  if (error instanceof ZendeskRecordNotFoundError) return 'Zendesk no longer has the file';
  if (error instanceof ZendeskApiError) return `Zendesk answered ${error.status} to its download`;
  if (error instanceof ZendeskTimeoutError) return 'its download timed out';
  if (error instanceof ZendeskConnectionError) return 'its download could not connect';
  if (error instanceof ZendeskRequestValidationError)
    return 'its download address is not a web address';
  return 'its download failed';
}

function uploadFailure(error: unknown, size: number, maxBytes: number): string {
  if (error instanceof RequestValidationError) return tooLargeReason(size, maxBytes);
  const status = error instanceof APIError ? ` (answered ${error.status})` : '';
  switch (incidentFailureKind(error)) {
    case 'not_acted':
      return `the incident service was unavailable${status}; it was not uploaded`;
    case 'unknown':
      return `the upload's outcome is unknown${status || ' (no answer)'}; it is not sent again to avoid a duplicate`;
    case 'rejected':
      return `the incident service refused it${status}`;
  }
}
