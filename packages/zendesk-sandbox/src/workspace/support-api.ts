import { z } from 'zod';

// Tolerant readers of the sandbox's Support API: only what the workspace shows or acts on.
const ZApiTicket = z.looseObject({
  id: z.number(),
  subject: z.string().nullish(),
  description: z.string().nullish(),
  status: z.string().nullish(),
  priority: z.string().nullish(),
  type: z.string().nullish(),
  requester_id: z.number().nullish(),
  assignee_id: z.number().nullish(),
  group_id: z.number().nullish(),
  tags: z.array(z.string()).default([]),
  custom_fields: z.array(z.looseObject({ id: z.number(), value: z.unknown() })).default([]),
  created_at: z.string().nullish(),
  updated_at: z.string().nullish(),
  via: z
    .looseObject({
      channel: z.union([z.string(), z.number()]),
      source: z.unknown().optional(),
    })
    .nullish(),
  ticket_form_id: z.number().nullish(),
});
export type TApiTicket = z.infer<typeof ZApiTicket>;

const ZApiComment = z.looseObject({
  id: z.number(),
  author_id: z.number().nullish(),
  body: z.string().nullish(),
  plain_body: z.string().nullish(),
  public: z.boolean().default(true),
  created_at: z.string().nullish(),
  attachments: z
    .array(z.looseObject({ file_name: z.string().nullish(), content_url: z.string().nullish() }))
    .default([]),
});
export type TApiComment = z.infer<typeof ZApiComment>;

const ZApiUserRef = z.looseObject({ id: z.number(), name: z.string().nullish() });
const ZCommentsPage = z.looseObject({
  comments: z.array(ZApiComment),
  users: z.array(ZApiUserRef).default([]),
});
const ZApiTicketField = z.looseObject({
  id: z.number(),
  title: z.string().nullish(),
  custom_field_options: z.array(z.looseObject({ name: z.string(), value: z.string() })).nullish(),
});
export type TApiTicketField = z.infer<typeof ZApiTicketField>;

export class SupportApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
    this.name = 'SupportApiError';
  }
}

export interface SupportApiConfig {
  /** The account's base URL, e.g. `http://127.0.0.1:8789/_z/demo`. */
  accountBaseUrl: string;
  /** An agent token; `fresh` asks for a new one after a 401. */
  token(fresh: boolean): Promise<string>;
  fetch: typeof fetch;
}

/** The Support API as the signed-in agent reaches it: every call carries the agent's Bearer token. */
export function createSupportApi(config: SupportApiConfig) {
  /** Sends a request with the agent's token, renewing it once on 401 (tokens expire). */
  async function send(pathAndQuery: string, init: RequestInit = {}): Promise<Response> {
    const attempt = async (fresh: boolean) => {
      const headers = new Headers(init.headers);
      if (!headers.has('authorization'))
        headers.set('authorization', `Bearer ${await config.token(fresh)}`);
      return config.fetch(config.accountBaseUrl + pathAndQuery, { ...init, headers });
    };
    const first = await attempt(false);
    if (first.status !== 401 || new Headers(init.headers).has('authorization')) return first;
    await first.body?.cancel();
    return attempt(true);
  }

  async function json(pathAndQuery: string, init?: RequestInit): Promise<unknown> {
    const res = await send(pathAndQuery, init);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      // keep the text: error pages are not always JSON
    }
    if (!res.ok) throw new SupportApiError(res.status, body, describeApiError(res.status, body));
    return body;
  }

  return {
    send,
    /** The account's tickets, newest first: up to `maxPages` pages of 100. */
    async listTickets(maxPages = 5): Promise<TApiTicket[]> {
      const tickets: TApiTicket[] = [];
      for (let page = 1; page <= maxPages; page += 1) {
        const body = await json(`/api/v2/tickets.json?per_page=100&page=${page}`);
        const parsed = z
          .object({ tickets: z.array(ZApiTicket), next_page: z.string().nullish() })
          .parse(body);
        tickets.push(...parsed.tickets);
        if (!parsed.next_page) break;
      }
      return tickets.sort((a, b) => b.id - a.id);
    },
    async getTicket(id: number): Promise<TApiTicket> {
      const body = await json(`/api/v2/tickets/${id}.json`);
      return z.object({ ticket: ZApiTicket }).parse(body).ticket;
    },
    async listComments(id: number) {
      const body = await json(`/api/v2/tickets/${id}/comments.json?sort_order=asc&include=users`);
      return ZCommentsPage.parse(body);
    },
    /** Who made the ticket's latest audited change (audits are listed oldest first). */
    async latestAudit(id: number): Promise<{ id: number; author_id: number | null } | null> {
      const ZPage = z.looseObject({
        audits: z.array(z.looseObject({ id: z.number(), author_id: z.number().nullish() })),
        meta: z.looseObject({ has_more: z.boolean() }).nullish(),
        links: z.looseObject({ next: z.string().nullish() }).nullish(),
      });
      let path = `/api/v2/tickets/${id}/audits.json?page[size]=100`;
      let last: { id: number; author_id?: number | null } | undefined;
      for (let page = 0; page < 50; page += 1) {
        const parsed = ZPage.parse(await json(path));
        last = parsed.audits.at(-1) ?? last;
        const next = parsed.links?.next;
        if (!parsed.meta?.has_more || !next) break;
        path =
          new URL(next).pathname.replace(/^.*?(\/api\/v2\/)/, '/api/v2/') + new URL(next).search;
      }
      return last ? { id: last.id, author_id: last.author_id ?? null } : null;
    },
    async listTicketFields(): Promise<TApiTicketField[]> {
      const body = await json('/api/v2/ticket_fields.json');
      return z.object({ ticket_fields: z.array(ZApiTicketField) }).parse(body).ticket_fields;
    },
    /** POST /uploads: adds a file to the upload `token` (or a new one) and returns the upload's token. */
    async uploadFile(
      file: { fileName: string; contentType: string; data: Buffer },
      token?: string,
    ): Promise<string> {
      const query = new URLSearchParams({ filename: file.fileName });
      if (token) query.set('token', token);
      const body = await json(`/api/v2/uploads.json?${query.toString()}`, {
        method: 'POST',
        headers: { 'content-type': file.contentType },
        body: new Uint8Array(file.data),
      });
      return z.object({ upload: z.looseObject({ token: z.string() }) }).parse(body).upload.token;
    },
    async updateTicket(id: number, ticket: Record<string, unknown>): Promise<TApiTicket> {
      const body = await json(`/api/v2/tickets/${id}.json`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ticket }),
      });
      return z.object({ ticket: ZApiTicket }).parse(body).ticket;
    },
  };
}
export type TSupportApi = ReturnType<typeof createSupportApi>;

function describeApiError(status: number, body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const text = [b.error, b.description ?? b.error_description]
      .filter((x) => typeof x === 'string')
      .join(': ');
    const details = b.details ? ` ${JSON.stringify(b.details)}` : '';
    if (text) return `${status} ${text}${details}`;
  }
  return `Support API answered ${status}`;
}
