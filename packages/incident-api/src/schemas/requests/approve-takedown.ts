import { z } from 'zod';
import { notBlank, strictRequest } from './fields';

export const MAX_AUTHOR_LENGTH = 256;

/** POST /v1/incident/{id}/approve-takedown */
export const ZApproveTakedownRequest = strictRequest('an approve-takedown request', {
  author: z
    .string({ error: 'author is required and must be a string' })
    .max(MAX_AUTHOR_LENGTH, { error: `author must be at most ${MAX_AUTHOR_LENGTH} characters` })
    .refine(notBlank, { error: 'author must not be empty' }),
});
export type TApproveTakedownRequest = z.infer<typeof ZApproveTakedownRequest>;
