import type { z } from 'zod';
import { ZendeskRequestValidationError } from './errors';

/** Strict writer: a request value that does not match its schema is never sent. */
export function parseRequest<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ZendeskRequestValidationError(`Invalid ${what}`, parsed.error);
  return parsed.data;
}
