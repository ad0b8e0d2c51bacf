import type { Request } from 'express';
import type { z } from 'zod';
import { HttpError } from '../errors';

/** Parses a control request body; the first issue becomes a 400 naming its field. */
export function parse<S extends z.ZodType>(schema: S, req: Request): z.infer<S> {
  return parseValues(schema, req.body ?? {});
}

/** Parses values against a control schema; the first issue becomes a 400 naming its field. */
export function parseValues<S extends z.ZodType>(schema: S, values: unknown): z.infer<S> {
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.join('.') : 'body';
  throw new HttpError(400, `Invalid parameter '${field}': ${issue?.message ?? 'invalid'}`);
}
