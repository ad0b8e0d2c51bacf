import { Router } from 'express';
import { z } from 'zod';
import type { TicketFieldRecord } from '../state/model';
import { recordInvalid, recordNotFound } from '../state/sandbox-state';
import { requireScope } from './authenticate';
import { caller, type SandboxContext } from './context';
import { badRequest } from './errors';
import { paginate } from './pagination';
import { serializeTicketField } from './serialize';
import {
  serializeSystemTicketField,
  SYSTEM_TICKET_FIELDS,
  systemTicketField,
} from '../state/system-ticket-fields';

/** The custom field types Zendesk's Ticket Fields API accepts (its `type` table, alphabetical). */
const FIELD_TYPES = new Set([
  'checkbox',
  'date',
  'decimal',
  'integer',
  'lookup',
  'multiselect',
  'partialcreditcard',
  'regexp',
  'tagger',
  'text',
  'textarea',
]);

const ZTicketFieldBody = z.object({
  ticket_field: z.object({
    type: z.string().optional(),
    title: z.string().optional(),
    description: z.string().optional(),
    active: z.boolean().optional(),
    required: z.boolean().optional(),
    custom_field_options: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
  }),
});

/** A system field is Zendesk's: it cannot be removed, and the sandbox lets no request change it. */
function refuseSystemField(id: number): void {
  const field = systemTicketField(id);
  if (!field) return;
  throw recordInvalid({
    base: [
      {
        description: `${field.title} is a system field and cannot be changed`,
        error: 'InvalidValue',
      },
    ],
  });
}

export function ticketFieldsRouter(ctx: SandboxContext): Router {
  const router = Router();
  const { state, urls } = ctx;
  // Zendesk answers a `tickets:read` token "You are missing the following required scopes: read":
  // ticket fields are not part of the tickets resource scope.
  const read = requireScope(null, 'read');

  // System fields first, as Zendesk lists them, then the account's custom fields.
  router.get('/api/v2/ticket_fields{.json}', read, (req, res) => {
    const { account } = caller(res);
    const custom = [...account.ticketFields.values()].sort(
      (a, b) => a.position - b.position || a.id - b.id,
    );
    const fields = [
      ...SYSTEM_TICKET_FIELDS.map((f) => serializeSystemTicketField(urls, account, f)),
      ...custom.map((f) => serializeTicketField(urls, account, f)),
    ];
    const page = paginate(req, fields, urls.origin + req.originalUrl);
    res.json({ ticket_fields: page.items, ...page.envelope });
  });

  router.get('/api/v2/ticket_fields/:id{.json}', read, (req, res) => {
    const { account } = caller(res);
    const system = systemTicketField(Number(req.params.id));
    if (system) {
      res.json({ ticket_field: serializeSystemTicketField(urls, account, system) });
      return;
    }
    const field = account.ticketFields.get(Number(req.params.id));
    if (!field) throw recordNotFound();
    res.json({ ticket_field: serializeTicketField(urls, account, field) });
  });

  // Ticket field creation is assumed to need the broad `write` scope (unconfirmed in Zendesk's docs).
  router.post('/api/v2/ticket_fields{.json}', requireScope(null, 'write', 'admin'), (req, res) => {
    const { account } = caller(res);
    const parsed = ZTicketFieldBody.safeParse(req.body);
    if (!parsed.success) throw badRequest('Expected a JSON body {"ticket_field": {...}}');
    const input = parsed.data.ticket_field;
    const details: Record<string, { description: string; error: string }[]> = {};
    if (!input.title?.trim())
      details.title = [{ description: 'Title: cannot be blank', error: 'BlankValue' }];
    if (!input.type || !FIELD_TYPES.has(input.type)) {
      details.type = [
        {
          description: `Type: ${input.type ?? ''} is not a valid field type`,
          error: 'InvalidValue',
        },
      ];
    }
    if (
      (input.type === 'tagger' || input.type === 'multiselect') &&
      (input.custom_field_options ?? []).length === 0
    ) {
      details.custom_field_options = [
        { description: 'Field options: cannot be blank', error: 'BlankValue' },
      ];
    }
    if (Object.keys(details).length > 0) throw recordInvalid(details);
    const now = state.isoNow();
    const field: TicketFieldRecord = {
      id: state.id(),
      type: input.type ?? 'text',
      title: input.title ?? '',
      description: input.description ?? '',
      active: input.active ?? true,
      required: input.required ?? false,
      custom_field_options: (input.custom_field_options ?? []).map((o) => ({
        id: state.id(),
        name: o.name,
        value: o.value,
      })),
      position: 9999,
      created_at: now,
      updated_at: now,
    };
    account.ticketFields.set(field.id, field);
    res.status(201).location(urls.api(account.subdomain, `ticket_fields/${field.id}.json`));
    res.json({ ticket_field: serializeTicketField(urls, account, field) });
  });

  // As Zendesk: the options given replace the field's options (an option kept keeps its id); the
  // type cannot change; a drop-down cannot lose all its options.
  router.put(
    '/api/v2/ticket_fields/:id{.json}',
    requireScope(null, 'write', 'admin'),
    (req, res) => {
      const { account } = caller(res);
      refuseSystemField(Number(req.params.id));
      const field = account.ticketFields.get(Number(req.params.id));
      if (!field) throw recordNotFound();
      const parsed = ZTicketFieldBody.safeParse(req.body);
      if (!parsed.success) throw badRequest('Expected a JSON body {"ticket_field": {...}}');
      const input = parsed.data.ticket_field;
      const details: Record<string, { description: string; error: string }[]> = {};
      if (input.type !== undefined && input.type !== field.type)
        details.type = [{ description: 'Type: cannot be changed', error: 'InvalidValue' }];
      if (input.title !== undefined && !input.title.trim())
        details.title = [{ description: 'Title: cannot be blank', error: 'BlankValue' }];
      const options = input.custom_field_options;
      if (options !== undefined && options.length === 0 && field.type === 'tagger')
        details.custom_field_options = [
          { description: 'Field options: cannot be blank', error: 'BlankValue' },
        ];
      if (Object.keys(details).length > 0) throw recordInvalid(details);
      if (input.title !== undefined) field.title = input.title;
      if (input.description !== undefined) field.description = input.description;
      if (input.active !== undefined) field.active = input.active;
      if (input.required !== undefined) field.required = input.required;
      if (options !== undefined) {
        field.custom_field_options = options.map((option) => ({
          id:
            field.custom_field_options.find((kept) => kept.value === option.value)?.id ??
            state.id(),
          name: option.name,
          value: option.value,
        }));
      }
      field.updated_at = state.isoNow();
      res.json({ ticket_field: serializeTicketField(urls, account, field) });
    },
  );

  // As Zendesk: 204, and the field no longer appears on any ticket.
  router.delete(
    '/api/v2/ticket_fields/:id{.json}',
    requireScope(null, 'write', 'admin'),
    (req, res) => {
      const { account } = caller(res);
      const id = Number(req.params.id);
      refuseSystemField(id);
      if (!account.ticketFields.delete(id)) throw recordNotFound();
      for (const ticket of account.tickets.values())
        ticket.custom_fields = ticket.custom_fields.filter((field) => field.id !== id);
      // a view no longer shows the field (unconfirmed: Zendesk's docs do not say)
      for (const view of account.views.values())
        view.output.columns = view.output.columns.filter((column) => column !== id);
      res.status(204).end();
    },
  );

  return router;
}
