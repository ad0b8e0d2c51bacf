import type { z } from 'zod';
import { RequestValidationError } from '../errors';

/** Strict writer: parse what we are about to send, or throw naming each field and rule. */
export function validateRequest<S extends z.ZodType>(
  schema: S,
  input: unknown,
  what: string,
): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new RequestValidationError(result.error.issues, what);
  return result.data;
}

/** Drops undefined values so defaults can be merged without adding keys. */
export function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
