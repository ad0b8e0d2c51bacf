// Which ticket attachments go to the incident as evidence. The service's supported types are "not
// shown" in the spec: this list (documents, images, mail and plain captures an analyst can open)
// is our assumption, kept here so it changes in one place.
import { assumptions } from '@incident-desk/incident-api';
import type { TAttachment } from '@incident-desk/zendesk-api';

export const SUPPORTED_EVIDENCE_TYPES: Record<string, readonly string[]> = {
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

/** 50 MB per attach request; room is left for the multipart envelope around the file. */
export const MAX_EVIDENCE_BYTES = assumptions.MAX_ATTACH_BYTES - 64 * 1024;

export type TEvidenceCheck = { ok: true; contentType: string } | { ok: false; reason: string };

export function checkEvidence(
  attachment: TAttachment,
  maxBytes = MAX_EVIDENCE_BYTES,
): TEvidenceCheck {
  const contentType = supportedTypeOf(attachment);
  if (!contentType) {
    const shown = attachment.content_type ?? 'unknown type';
    return { ok: false, reason: `${shown} is not a supported evidence type` };
  }
  if (typeof attachment.size === 'number' && attachment.size > maxBytes) {
    return { ok: false, reason: `larger than the 50 MB evidence limit (${attachment.size} bytes)` };
  }
  return { ok: true, contentType };
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
