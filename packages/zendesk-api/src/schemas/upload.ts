import { z } from 'zod';
import { ZAttachment } from './attachment';

export const ZUpload = z.looseObject({
  token: z.string().min(1),
  expires_at: z.string().nullable().optional(),
  attachment: ZAttachment.nullable().optional(),
  attachments: z.array(ZAttachment).default([]),
});
export type TUpload = z.infer<typeof ZUpload>;

export const ZUploadResponse = z.looseObject({ upload: ZUpload });
