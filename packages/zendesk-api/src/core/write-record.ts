import type { z } from 'zod';
import type { HttpTransport } from './http-transport';
import type { ZendeskRequestOptions } from './options';
import { parseRequest } from './parse-request';

/** A kind of admin record: the key it travels under both ways, and the answer's schema. */
export interface RecordKind<K extends string, Answer extends z.ZodType<Record<K, unknown>>> {
  key: K;
  answer: Answer;
}

export interface RecordWrite {
  method: 'POST' | 'PUT';
  path: string;
  /** The strict request schema, and what a refusal calls the value (`trigger update`). */
  input: z.ZodType;
  what: string;
  value: unknown;
}

/**
 * POST or PUT one record under its key (`{ "trigger": {...} }`), checked by the strict request
 * schema first, and the record Zendesk answers with, read from under the same key.
 */
export async function writeRecord<K extends string, Answer extends z.ZodType<Record<K, unknown>>>(
  transport: HttpTransport,
  kind: RecordKind<K, Answer>,
  write: RecordWrite,
  options: ZendeskRequestOptions | undefined,
): Promise<z.output<Answer>[K]> {
  const record = parseRequest(write.input, write.value, write.what);
  const response = await transport.json(
    { method: write.method, path: write.path, json: { [kind.key]: record }, options },
    kind.answer,
  );
  return response[kind.key];
}
