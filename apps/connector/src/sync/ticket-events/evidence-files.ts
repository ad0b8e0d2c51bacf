// Which ticket attachments go to the incident as evidence, and how large each may be. The
// service's supported types are "not shown" in the spec: this list (documents, images, mail and
// plain captures an analyst can open) is our assumption, kept here so it changes in one place.
// Sizes are exact: "50 MB per request" is 50,000,000 bytes (as the client and the sandbox read
// it), and a file's room is that less the multipart envelope its own name and type take.
import { assumptions, maxAttachFileBytes } from '@incident-desk/incident-api';
import type { TAttachment } from '../../accounts';
import { plainText } from '@incident-desk/threat-text';
import type { SkipReason } from '../../notes';

const SUPPORTED_EVIDENCE_TYPES: Record<string, readonly string[]> = {
  'application/pdf': ['pdf'],
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'image/bmp': ['bmp'],
  'image/tiff': ['tif', 'tiff'],
  'text/plain': ['txt', 'log'],
  'text/csv': ['csv'],
  'text/html': ['html', 'htm'],
  'message/rfc822': ['eml'],
  'application/vnd.ms-outlook': ['msg'],
  'application/json': ['json'],
};

/** One attach request holds at most this many bytes, the file's envelope included. */
const ATTACH_REQUEST_MAX_BYTES = assumptions.MAX_ATTACH_BYTES;

export type TEvidenceCheck =
  { ok: true; contentType: string; maxBytes: number } | { ok: false; reason: SkipReason };

export async function checkEvidence(attachment: TAttachment): Promise<TEvidenceCheck> {
  const contentType = supportedTypeOf(attachment);
  if (!contentType) {
    const shown = attachment.content_type ? plainText(attachment.content_type).slice(0, 100) : '';
    return { ok: false, reason: { kind: 'unsupported_type', type: shown || null } };
  }
  const maxBytes = await maxAttachFileBytes(attachment.file_name, contentType);
  if (typeof attachment.size === 'number' && attachment.size > maxBytes) {
    return { ok: false, reason: tooLargeReason(attachment.size, maxBytes) };
  }
  return { ok: true, contentType, maxBytes };
}

/** Why a file was too large, in exact bytes; `size` undefined when only the stream showed it. */
export function tooLargeReason(size: number | undefined, maxBytes: number): SkipReason {
  return { kind: 'too_large', size, maxBytes, requestMaxBytes: ATTACH_REQUEST_MAX_BYTES };
}

function supportedTypeOf(attachment: TAttachment): string | undefined {
  const declared = attachment.content_type?.split(';')[0]?.trim().toLowerCase();
  if (declared && declared in SUPPORTED_EVIDENCE_TYPES) return declared;
  // Zendesk sends application/octet-stream for types it does not recognise: go by the extension
  if (declared && declared !== 'application/octet-stream') return undefined;
  const extension = attachment.file_name.split('.').pop()?.toLowerCase();
  if (!extension) return undefined;
  return Object.keys(SUPPORTED_EVIDENCE_TYPES).find((type) =>
    SUPPORTED_EVIDENCE_TYPES[type]!.includes(extension),
  );
}
