import type { AccountRecord, AttachmentRecord, UploadRecord } from './model';
import { randomHex, type SandboxState } from './sandbox-state';

const UPLOAD_TTL_MS = 3 * 24 * 60 * 60 * 1000;

/** Adds a file to an upload (a new one, or the one named by `token`), as POST /uploads does. */
export function addUpload(
  state: SandboxState,
  account: AccountRecord,
  file: { fileName: string; contentType: string; data: Buffer },
  token: string | undefined,
): { upload: UploadRecord; attachment: AttachmentRecord } | null {
  let upload: UploadRecord | undefined;
  if (token !== undefined) {
    upload = account.uploads.get(token);
    if (!upload || upload.used) return null;
  } else {
    upload = {
      token: randomHex(12),
      attachment_ids: [],
      expires_at: state.now() + UPLOAD_TTL_MS,
      used: false,
    };
    account.uploads.set(upload.token, upload);
  }
  const attachment: AttachmentRecord = {
    id: state.id(),
    token: randomHex(16),
    file_name: file.fileName,
    content_type: file.contentType,
    data: file.data,
  };
  account.attachments.set(attachment.id, attachment);
  upload.attachment_ids.push(attachment.id);
  return { upload, attachment };
}
