import type { z } from 'zod';
import { encodePath } from './encode-path';
import type { HttpTransport } from './http-transport';
import type { ZendeskRequestOptions } from './options';
import { parseRequest } from './parse-request';

/** A kind of admin record (a trigger, a ticket field, a webhook) and where its collection is. */
export interface RecordKind<K extends string, Answer extends z.ZodType<Record<K, unknown>>> {
  /** The key the record travels under, both ways: `{ "trigger": {...} }`. */
  key: K;
  answer: Answer;
  /** What a refused value is called: `trigger`, `trigger update`. */
  what: string;
  /** The collection's path, e.g. `/api/v2/triggers`. */
  collection: string;
  /** `.json` after each path, as most of the Support API has; webhooks have none. */
  suffix: '.json' | '';
}

/**
 * Creating and updating one kind of admin record: the value is checked by its strict request
 * schema first (and never sent when it fails), and the record Zendesk answers with is returned.
 */
export class RecordWrites<K extends string, Answer extends z.ZodType<Record<K, unknown>>> {
  constructor(
    private readonly transport: HttpTransport,
    private readonly kind: RecordKind<K, Answer>,
  ) {}

  /** POST {collection}; a refused value rejects, like any failure. */
  async create(
    input: z.ZodType,
    value: unknown,
    options: ZendeskRequestOptions | undefined,
  ): Promise<z.output<Answer>[K]> {
    const { collection, suffix, what } = this.kind;
    return this.write('POST', `${collection}${suffix}`, parseRequest(input, value, what), options);
  }

  /** PUT {collection}/{id} */
  async update(
    id: number,
    input: z.ZodType,
    value: unknown,
    options: ZendeskRequestOptions | undefined,
  ): Promise<z.output<Answer>[K]> {
    const { collection, suffix, what } = this.kind;
    const record = parseRequest(input, value, `${what} update`);
    return this.write('PUT', `${collection}${encodePath`/${id}`}${suffix}`, record, options);
  }

  private async write(
    method: 'POST' | 'PUT',
    path: string,
    record: unknown,
    options: ZendeskRequestOptions | undefined,
  ): Promise<z.output<Answer>[K]> {
    const response = await this.transport.json(
      { method, path, json: { [this.kind.key]: record }, options },
      this.kind.answer,
    );
    return response[this.kind.key];
  }
}

/** A kind of admin record that is created and updated whole, with the schemas each is checked by. */
interface EditableKind<
  K extends string,
  Answer extends z.ZodType<Record<K, unknown>>,
> extends RecordKind<K, Answer> {
  createInput: z.ZodType;
  updateInput: z.ZodType;
}

type AnyEditableKind = EditableKind<string, z.ZodType<Record<string, unknown>>>;
type RecordOf<Kind extends AnyEditableKind> = z.output<Kind['answer']>[Kind['key']];

/**
 * A collection of admin records created and updated whole (triggers, ticket fields): `create`
 * POSTs to the collection, `update` PUTs to one record, each with the kind's strict schema.
 */
export abstract class EditableRecords<Kind extends AnyEditableKind> {
  private readonly writes: RecordWrites<Kind['key'], Kind['answer']>;

  protected constructor(
    protected readonly transport: HttpTransport,
    private readonly kind: Kind,
  ) {
    this.writes = new RecordWrites(transport, kind);
  }

  /** POST {collection}: the new record as Zendesk stored it. */
  create(
    input: z.input<Kind['createInput']>,
    options?: ZendeskRequestOptions,
  ): Promise<RecordOf<Kind>> {
    return this.writes.create(this.kind.createInput, input, options);
  }

  /** PUT {collection}/{id}: the record after the update. */
  update(
    id: number,
    input: z.input<Kind['updateInput']>,
    options?: ZendeskRequestOptions,
  ): Promise<RecordOf<Kind>> {
    return this.writes.update(id, this.kind.updateInput, input, options);
  }
}
