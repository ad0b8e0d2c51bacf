// Attachments of a forwarded comment: downloaded from their content address and attached to the
// incident one file per request (each within the 50 MB limit). Every file that does not make it is
// returned with the reason, for the note that tells the agent.
import type { TComment } from '@incident-desk/zendesk-api';
import { ZendeskAttachmentTooLargeError } from '@incident-desk/zendesk-api';
import type { AccountContext } from '../../accounts/account-context';
import { checkEvidence, MAX_EVIDENCE_BYTES } from './evidence-files';
import { describeIncidentFailure } from './incident-error-kind';

export interface SkippedFile {
  fileName: string;
  reason: string;
}

export async function uploadEvidence(
  ctx: AccountContext,
  incidentId: string,
  comment: TComment,
): Promise<{ uploaded: number; skipped: SkippedFile[] }> {
  const skipped: SkippedFile[] = [];
  let uploaded = 0;
  for (const attachment of comment.attachments) {
    const fileName = attachment.file_name;
    const check = checkEvidence(attachment);
    if (!check.ok) {
      skipped.push({ fileName, reason: check.reason });
      continue;
    }
    let data: Buffer;
    try {
      ({ data } = await ctx.zendesk.attachments.download(attachment.content_url, {
        maxBytes: MAX_EVIDENCE_BYTES,
      }));
    } catch (error) {
      skipped.push({
        fileName,
        reason:
          error instanceof ZendeskAttachmentTooLargeError
            ? 'larger than the 50 MB evidence limit'
            : `could not be downloaded (${error instanceof Error ? error.message : String(error)})`,
      });
      continue;
    }
    try {
      await ctx
        .incidents()
        .incidents.attach(incidentId, [
          { filename: fileName, content: data, contentType: check.contentType },
        ]);
      uploaded += 1;
    } catch (error) {
      skipped.push({
        fileName,
        reason: `the incident service did not accept it (${describeIncidentFailure(error)})`,
      });
    }
  }
  return { uploaded, skipped };
}
