// The sidebar's requests and the connector's short answers (SIDEBAR_API.md). The connector parses
// the bodies with these schemas; the sidebar writes them as these types.
import * as z from 'zod/mini';

export const REPORT_MODES = ['takedown', 'monitor'] as const;
export type TReportMode = (typeof REPORT_MODES)[number];

export const INCIDENT_ACTIONS = ['takedown', 'monitor', 'safe'] as const;
export const ZIncidentAction = z.enum(INCIDENT_ACTIONS);
export type TIncidentAction = z.output<typeof ZIncidentAction>;

/**
 * POST …/approve-takedown: nothing needed; the author is the session's agent. A body that names an
 * `author` anyway must name that agent: any other is refused (`author_mismatch`), never rewritten.
 */
export const ZApproveBody = z.looseObject({ author: z.optional(z.unknown()) });

/** POST …/report */
export const ZReportBody = z.object({ mode: z.enum(REPORT_MODES) });
export type TReportBody = z.output<typeof ZReportBody>;

/** A threat the agent picked: at most 2,048 characters, not blank. */
const ZThreatValue = z.string().check(z.trim(), z.minLength(1), z.maxLength(2048));

/** POST …/threats/report */
export const ZFoundThreatReportBody = z.object({ value: ZThreatValue, mode: z.enum(REPORT_MODES) });
export type TFoundThreatReportBody = z.output<typeof ZFoundThreatReportBody>;

/** POST …/link-existing */
export const ZLinkExistingBody = z.object({ value: ZThreatValue });
export type TLinkExistingBody = z.output<typeof ZLinkExistingBody>;

/** The answer to an action: a message for the agent, when the connector gives one. */
export const ZActionAck = z.catch(
  z.object({ message: z.catch(z.optional(z.string()), undefined) }),
  {},
);
export type TActionAck = z.output<typeof ZActionAck>;

/** Every error answer (http/app-error.ts writes it). */
export interface ConnectorErrorBody {
  error?: { code?: string; message?: string; retryAfterSeconds?: number };
}
