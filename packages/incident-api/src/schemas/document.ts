import { z } from 'zod';
import { ZTimestamp } from './common';
import { ZDocumentType } from './vocabularies';

export const ZDocumentClient = z.looseObject({
  id: z.string(),
  name: z.string(),
  parentClientId: z.string().nullable(),
});
export type TDocumentClient = z.infer<typeof ZDocumentClient>;

export const ZDocumentUploader = z.looseObject({
  id: z.string().optional(),
  email: z.string().optional(),
  // nullish like the user's own name and surname (assumptions.ts)
  name: z.string().nullish(),
  surname: z.string().nullish(),
});
export type TDocumentUploader = z.infer<typeof ZDocumentUploader>;

export const ZDocument = z.looseObject({
  id: z.string(),
  clientId: z.string(),
  client: ZDocumentClient.nullable(),
  docType: ZDocumentType,
  fileName: z.string().nullable(),
  uploadedBy: ZDocumentUploader.nullable(),
  createdAt: ZTimestamp.nullable(),
  updatedAt: ZTimestamp.nullable(),
  /** short-lived download address; single-document detail only */
  signedUrl: z.string().nullable().optional(),
});
export type TDocument = z.infer<typeof ZDocument>;
