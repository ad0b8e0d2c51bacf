import { parseOutgoing } from '@incident-desk/client-core';
import type { z } from 'zod';
import { ZendeskRequestValidationError } from './errors';

/** Strict writer: a request value that does not match its schema is never sent. */
export const parseRequest = <S extends z.ZodType>(schema: S, value: unknown, what: string) =>
  parseOutgoing(
    schema,
    value,
    (error) => new ZendeskRequestValidationError(`Invalid ${what}`, error),
  );
