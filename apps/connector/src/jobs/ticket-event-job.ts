// The contract of a ticket event job: what the Zendesk receiver and the sidebar API enqueue and
// the worker runs. Data, not code: the worker parses it at its edge and nothing unparsed goes on.
import { z } from 'zod';

export const TICKET_EVENT_QUEUE = 'ticket-event';

// Trigger templates may render {{ticket.id}} quoted or bare.
const ZTicketId = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^\d{1,19}$/, 'must be a ticket id')
    .transform(Number),
]);
/** The update that fired the trigger ({{ticket.updated_at_with_timestamp}}): tells request occurrences apart. */
const ZOccurrence = z.string().max(64).optional();
/** {{ticket.latest_comment.id}}: tells apart two replies within one second; empty without a comment. */
const ZCommentId = z
  .union([z.number().int().positive(), z.string().regex(/^\d{0,19}$/, 'must be a comment id')])
  .optional();

/** The body a trigger sends (and the sidebar API's equivalent): identifiers only. */
export const ZTicketingWebhookBody = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('report'),
    ticketId: ZTicketId,
    mode: z.enum(['takedown', 'monitor']),
    requesterEmail: z.string().max(320).optional(),
  }),
  z.object({
    kind: z.literal('comment'),
    ticketId: ZTicketId,
    updatedAt: ZOccurrence,
    commentId: ZCommentId,
  }),
  z.object({
    kind: z.literal('action'),
    ticketId: ZTicketId,
    action: z.enum(['tkd', 'monitor', 'safe']),
    updatedAt: ZOccurrence,
  }),
]);
export type TTicketingWebhookBody = z.infer<typeof ZTicketingWebhookBody>;

export const ZTicketEventJob = z.object({
  accountId: z.string().min(1),
  receivedAt: z.string(),
  /** Who asked: a trigger's report stands only while its submit tag is on the ticket. */
  via: z.enum(['trigger', 'sidebar']).optional(),
  /** The agent who asked in the sidebar (their email, from the verified session): the reporter. */
  agentEmail: z.string().max(320).optional(),
  /** The id of the request that enqueued it (added by the inbox), on the job's log lines. */
  requestId: z.string().optional(),
  body: ZTicketingWebhookBody,
});
export type TicketEventJob = z.infer<typeof ZTicketEventJob>;

/** The jobs of one ticket run one at a time, in arrival order, on any instance. */
export function ticketOrderingKey(accountId: string, ticketId: number | bigint): string {
  return `${accountId}:${ticketId}`;
}
