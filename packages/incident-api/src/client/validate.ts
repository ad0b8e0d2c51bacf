import { parseOutgoing } from '@incident-desk/client-core';
import type { z } from 'zod';
import { RequestValidationError } from '../errors';

/** Strict writer: parse what we are about to send, or throw naming each field and rule. */
export const validateRequest = <S extends z.ZodType>(schema: S, input: unknown, what: string) =>
  parseOutgoing(schema, input, (error) => new RequestValidationError(error.issues, what));

/** Drops undefined values so defaults can be merged without adding keys. */
export function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
