import { z } from 'zod';
import { notBlank, strictRequest } from './fields';

/**
 * POST /v1/incident/{id}/comment. The text field's name is assumed to be `comment`
 * (assumptions.ts); `author` is the documented optional email (omitted = API key owner).
 */
export const ZCommentRequest = strictRequest('a comment request', {
  comment: z
    .string({ error: 'comment is required and must be a non-null string' })
    .refine(notBlank, { error: 'comment must not be empty' }),
  author: z.email({ error: 'author must be an email address' }).optional(),
});
export type TCommentRequest = z.infer<typeof ZCommentRequest>;
