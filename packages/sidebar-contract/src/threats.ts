// GET …/threats and GET …/duplicates?value= (SIDEBAR_API.md, "Threats found in the ticket" and
// "Duplicates"). Every value in them is attacker-controlled and is shown only as text, defanged.
// An entry the sidebar cannot read is left out; the rest are shown.
import type { FoundThreat, TThreatPlace } from '@incident-desk/threat-text';
import * as z from 'zod/mini';

/** The items of `schema` that read; the others are dropped (a tolerant list). */
const readable = <T extends z.core.$ZodType>(schema: T) =>
  z.pipe(
    z.catch(z.array(z.unknown()), []),
    z.transform((items) =>
      items.flatMap((item) => {
        const parsed = z.safeParse(schema, item);
        return parsed.success ? [parsed.data as z.output<T>] : [];
      }),
    ),
  );

const ZPlace = z.union([
  z.object({ in: z.literal('subject') }),
  z.object({
    in: z.literal('comment'),
    commentId: z.catch(z.number(), 0),
    index: z.number(),
    public: z.catch(z.boolean(), false),
    author: z.catch(z.string(), 'end-user'),
  }),
]);

const ZFoundThreat = z.object({
  value: z.string(),
  kind: z.enum(['url', 'domain', 'email', 'phone', 'ipv4']),
  display: z.string(),
  seenIn: readable(ZPlace),
});

export const ZFoundThreats = z.object({ threats: readable(ZFoundThreat) });
export type FoundThreats = { threats: FoundThreat[] };
export type { FoundThreat, TThreatPlace };

/** The reference a report answered (inc_…): the only incident id shown to people; null when unknown. */
const ZReference = z.catch(z.nullable(z.string()), null);

const ZLinkedDuplicate = z.object({
  /** The service's id of the incident: a key, never shown. */
  incidentId: z.string(),
  reference: ZReference,
  /** The ticket that follows the incident (another ticket of this account); null when the agent may not open it. */
  ticketId: z.catch(z.nullable(z.number()), null),
});

const ZServiceDuplicate = z.object({
  /** The service's id of the incident: a key, and what linking to it names; never shown. */
  incidentId: z.string(),
  reference: ZReference,
  /** The incident's subject as the service has it, defanged for display. */
  display: z.string(),
  /** The ticket of this account that follows it; null when none does or the agent may not open it. */
  linkedTicketId: z.catch(z.nullable(z.number()), null),
  /** Whether a ticket of this account follows it (one the agent may not open included). */
  followed: z.catch(z.boolean(), false),
});

const ZServiceSearch = z.catch(
  z.union([
    z.object({ state: z.literal('searched'), incidents: readable(ZServiceDuplicate) }),
    /** The account's key has no resolutions (403): nothing is known at the service. */
    z.object({ state: z.literal('not_enabled') }),
    z.object({ state: z.literal('unavailable') }),
  ]),
  { state: 'unavailable' },
);

export const ZThreatDuplicates = z.object({
  value: z.string(),
  display: z.string(),
  linked: readable(ZLinkedDuplicate),
  service: ZServiceSearch,
});
export type TThreatDuplicates = z.output<typeof ZThreatDuplicates>;
export type TLinkedDuplicate = z.output<typeof ZLinkedDuplicate>;
export type TServiceDuplicate = z.output<typeof ZServiceDuplicate>;
export type TServiceSearch = TThreatDuplicates['service'];
