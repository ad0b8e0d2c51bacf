import { z } from 'zod';
import { ZAttachment } from './attachment';
import { ZCursorMeta } from './common';
import { ZUser } from './user';

export const ZComment = z.looseObject({
  id: z.number(),
  type: z.string().optional(),
  author_id: z.number(),
  body: z.string().nullable().optional(),
  html_body: z.string().nullable().optional(),
  plain_body: z.string().nullable().optional(),
  public: z.boolean(),
  attachments: z.array(ZAttachment).default([]),
  via: z.unknown().optional(),
  metadata: z.unknown().optional(),
  created_at: z.string().optional(),
});
export type TComment = z.infer<typeof ZComment>;

export const ZCommentsResponse = z.looseObject({
  comments: z.array(ZComment),
  users: z.array(ZUser).default([]),
  meta: ZCursorMeta.optional(),
});
