// GET /sidebar/tickets/{id}: what the connector answers and the sidebar reads (SIDEBAR_API.md).
// The connector has already parsed the incident service's data with the client's schemas; here the
// sidebar only refuses a body that is not a view and gives the optional parts their defaults, so
// its components never meet an undefined array. The incident's own values pass through untouched
// (tolerant reader: unknown statuses and extra keys stay).
import type {
  TDetailedIncident,
  TSnapshot,
  TTakedownAttempts,
  TUsage,
} from '@incident-desk/incident-api/schemas';
import * as z from 'zod/mini';
import { INCIDENT_ACTIONS } from './requests';

export const LINK_STATES = ['linked', 'unlinked', 'none', 'failed'] as const;
export type TLinkState = (typeof LINK_STATES)[number];

export const PART_NAMES = ['incident', 'snapshots', 'takedownAttempts', 'usage'] as const;
export type TPartName = (typeof PART_NAMES)[number];

/** A value the sidebar can go without: anything unreadable reads as the fallback. */
const orElse = <T extends z.core.SomeType>(schema: T, fallback: z.output<T>) =>
  z.catch(schema, fallback as z.core.util.NoUndefined<z.output<T>>);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An object read by `schema`, or null when the connector sent no object at all. */
const objectOrNull = <T>(schema: z.ZodMiniType<T>) =>
  z.pipe(
    z.transform((value: unknown): unknown => (isRecord(value) ? value : null)),
    z.nullable(schema),
  );

/** Checked by `shape`, then passed through whole: the service's value as the connector parsed it. */
const passedThrough = <T>(shape: z.core.$ZodType) => shape as unknown as z.ZodMiniType<T>;

const ZTicket = z.object({
  id: z.pipe(z.union([z.number(), z.string()]), z.transform(Number)),
  /** linked: Incident ID set; unlinked: Threat set, no incident; none: neither; failed: tagged incident_unlinked. */
  linkState: z.enum(LINK_STATES),
  incidentId: orElse(z.nullable(z.string()), null),
  /** The saved Threat field value, attacker-controlled. */
  threat: orElse(z.nullable(z.string()), null),
  /** Why linking failed (linkState failed), already human-readable; shown as text. */
  unlinkedReason: orElse(z.optional(z.string()), undefined),
  /**
   * Why linking failed, as a value (linkState failed): duplicate when the service already has an
   * incident for the threat (retrying cannot link it), failed otherwise.
   */
  unlinkedCause: orElse(z.optional(z.enum(['duplicate', 'failed'])), undefined),
  /** Ticket field ids, so the sidebar can listen to their change events. */
  fieldIds: orElse(
    z.object({
      threat: z.optional(z.number()),
      incidentId: z.optional(z.number()),
      incidentStatus: z.optional(z.number()),
    }),
    {},
  ),
});
export type TSidebarTicket = z.output<typeof ZTicket>;

const ZIncident = passedThrough<TDetailedIncident>(
  z.looseObject({
    id: z.string(),
    status: z.string(),
    history: orElse(z.array(z.unknown()), []),
    blocklists: orElse(z.array(z.unknown()), []),
  }),
);

const ZTakedownAttempts = passedThrough<TTakedownAttempts>(
  z.looseObject({ takedownAttempts: orElse(z.array(z.unknown()), []) }),
);

const ZFailedForward = z.object({
  id: z.string(),
  /** What was being forwarded: comment, report, action, sync or ticket_update. */
  kind: z.string(),
  failedAt: z.string(),
  attempts: z.number(),
  lastError: z.string(),
});
export type TFailedForward = z.output<typeof ZFailedForward>;

const ZSyncHealth = z.object({
  lastEventAppliedAt: orElse(z.nullable(z.string()), null),
  pendingForwards: orElse(z.number(), 0),
  failedForwards: orElse(z.array(ZFailedForward), []),
  /** Incident changes recorded for this ticket and not yet written to it (paced or paused). */
  waitingTicketUpdates: orElse(z.number(), 0),
  /** When the oldest of them was recorded; null when none waits. */
  waitingSince: orElse(z.nullable(z.string()), null),
  /**
   * Zendesk answered the account 429: none of its ticket updates is written before this time (the
   * writer's next attempt), and a retry cannot bring it forward; null when not paused.
   */
  writesPausedUntil: orElse(z.nullable(z.string()), null),
});
export type TSyncHealth = z.output<typeof ZSyncHealth>;

/** rate_limited: the service answered 429; temporarily_unavailable: 5xx or no answer. */
export const UNAVAILABLE_REASONS = [
  'not_enabled',
  'rate_limited',
  'temporarily_unavailable',
  'not_found',
] as const;

const ZUnavailablePart = z.object({
  part: z.enum(PART_NAMES),
  /** A reason this side does not know (a newer connector) reads as temporarily unavailable. */
  reason: orElse(z.enum(UNAVAILABLE_REASONS), 'temporarily_unavailable'),
  /** rate_limited: the service's Retry-After, in whole seconds (0 to 600), when it sent one. */
  retryAfterSeconds: z.optional(z.number()),
});
/** A part the connector could not fetch this time, so "none" is never confused with "failed". */
export type TUnavailablePart = z.output<typeof ZUnavailablePart>;

const ZAnalystRequest = z.object({
  /** What the analyst asked for (the event's `waitForClient`), attacker-controlled text; null when it named nothing. */
  text: orElse(z.nullable(z.string()), null),
  /** When the incident asked. */
  at: z.string(),
});
/** The newest incident.action_required event's request, as the connector recorded it. */
export type TAnalystRequest = z.output<typeof ZAnalystRequest>;

const ZRequestedAction = z.object({
  action: z.enum(INCIDENT_ACTIONS),
  /** The incident's status right after the request; null when it could not be read. */
  status: orElse(z.nullable(z.string()), null),
  at: z.string(),
});
/** The last action an agent asked the service for on this incident (a report's mode included). */
export type TRequestedAction = z.output<typeof ZRequestedAction>;

export const VIEWER_LIMITS = ['read_only_role'] as const;

const ZViewer = z.object({
  /** Whether the agent's Zendesk role may act (report, approve, request, retry): not a light agent or contributor. */
  canAct: z.boolean(),
  /** Why not: read_only_role, a role that may view tickets but not act on them; null when they may. */
  reason: orElse(z.nullable(z.enum(VIEWER_LIMITS)), null),
});
/** What the session's agent may do on this ticket, so the sidebar offers only what they can use. */
export type TViewer = z.output<typeof ZViewer>;

export const ZSidebarTicketView = z.object({
  ticket: ZTicket,
  incident: objectOrNull(ZIncident),
  snapshots: orElse(z.array(passedThrough<TSnapshot>(z.unknown())), []),
  takedownAttempts: orElse(objectOrNull(ZTakedownAttempts), null),
  usage: orElse(objectOrNull(passedThrough<TUsage>(z.looseObject({}))), null),
  sync: orElse(ZSyncHealth, ZSyncHealth.parse({})),
  unavailable: orElse(z.array(ZUnavailablePart), []),
  analystRequest: orElse(z.nullable(ZAnalystRequest), null),
  requestedAction: orElse(z.nullable(ZRequestedAction), null),
  // a connector that says nothing: actions are offered, and it still refuses them (403 read_only)
  viewer: orElse(ZViewer, { canAct: true, reason: null }),
  fetchedAt: z.catch(z.string(), () => new Date().toISOString()),
});
export type TSidebarTicketView = z.output<typeof ZSidebarTicketView>;
