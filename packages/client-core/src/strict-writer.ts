import type { z } from 'zod';

/**
 * The strict writer both API clients follow: what they are about to send is parsed with its
 * request schema, and a value that fails is never sent; `refuse` builds the client's own error.
 */
export function parseOutgoing<S extends z.ZodType>(
  schema: S,
  value: unknown,
  refuse: (error: z.ZodError) => Error,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw refuse(parsed.error);
  return parsed.data;
}
