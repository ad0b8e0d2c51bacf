import { z } from 'zod';
import { ZDetailedIncident } from './detailed-incident';
import { ZIncident } from './incident';
import { ZCursorPaging, ZOffsetPaging } from './paging';
import { ZSnapshotsData } from './snapshot';
import { ZTakedownAttempts } from './takedown-attempts';
import { ZUsage } from './usage';
import { ZUser } from './user';

/** A read: `message` is `success`, the answer is under `data`. */
export const ZReadEnvelope = <T extends z.ZodType>(data: T) =>
  z.looseObject({ message: z.string(), data });

const ZPageEnvelope = <T extends z.ZodType, P extends z.ZodType>(item: T, paging: P) =>
  z.looseObject({ message: z.string(), data: z.array(item), paging });

/** A page of a list with cursor paging (users alone page by offset). */
export const ZListEnvelope = <T extends z.ZodType>(item: T) => ZPageEnvelope(item, ZCursorPaging);

/**
 * POST /v1/incident/tkd and /monitor, 200. Without `id` (and `url`) it is a duplicate from the
 * older processing path, which is why both are optional here.
 */
export const ZReportResponse = z.looseObject({
  message: z.string().optional(),
  id: z.string().optional(),
  /** dashboard link {dashboard_url}/incident/<incident_id> */
  url: z.string().optional(),
});
export type TReportResponse = z.infer<typeof ZReportResponse>;

export const ZApproveTakedownResponse = z.looseObject({ message: z.string(), id: z.string() });
export type TApproveTakedownResponse = z.infer<typeof ZApproveTakedownResponse>;

export const ZIncidentResponse = ZReadEnvelope(ZDetailedIncident);
export const ZSnapshotsResponse = ZReadEnvelope(ZSnapshotsData);
export const ZUsageResponse = ZReadEnvelope(ZUsage);

export const ZIncidentListResponse = ZListEnvelope(ZIncident);
export type TIncidentListResponse = z.infer<typeof ZIncidentListResponse>;

export const ZResolutionsResponse = ZListEnvelope(ZTakedownAttempts);
export type TResolutionsResponse = z.infer<typeof ZResolutionsResponse>;

export const ZUsersResponse = ZPageEnvelope(ZUser, ZOffsetPaging);
export type TUsersResponse = z.infer<typeof ZUsersResponse>;
