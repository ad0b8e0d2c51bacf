import { z } from 'zod';
import { ZDetailedIncident } from './detailed-incident';
import { ZIncident } from './incident';
import { ZCursorPaging, ZOffsetPaging } from './paging';
import { ZSnapshotsData } from './snapshot';
import { ZTakedownAttempts } from './takedown-attempts';
import { ZUsage } from './usage';
import { ZUser } from './user';

/** `message` is `success` on reads. */
export const ZMessageEnvelope = z.looseObject({ message: z.string() });
export type TMessageEnvelope = z.infer<typeof ZMessageEnvelope>;

export const ZReadEnvelope = <T extends z.ZodType>(data: T) =>
  z.looseObject({ message: z.string(), data });
export type TReadEnvelope<T> = { message: string; data: T; [key: string]: unknown };

export const ZListEnvelope = <T extends z.ZodType>(item: T) =>
  z.looseObject({ message: z.string(), data: z.array(item), paging: ZCursorPaging });
export type TListEnvelope<T> = {
  message: string;
  data: T[];
  paging: z.infer<typeof ZCursorPaging>;
  [key: string]: unknown;
};

export const ZOffsetListEnvelope = <T extends z.ZodType>(item: T) =>
  z.looseObject({ message: z.string(), data: z.array(item), paging: ZOffsetPaging });
export type TOffsetListEnvelope<T> = {
  message: string;
  data: T[];
  paging: z.infer<typeof ZOffsetPaging>;
  [key: string]: unknown;
};

/** Errors carry a human-readable `message`; other body fields are not shown. */
export const ZErrorBody = z.looseObject({ message: z.string().optional() });
export type TErrorBody = z.infer<typeof ZErrorBody>;

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
export type TIncidentResponse = z.infer<typeof ZIncidentResponse>;

export const ZIncidentListResponse = ZListEnvelope(ZIncident);
export type TIncidentListResponse = z.infer<typeof ZIncidentListResponse>;

export const ZResolutionsResponse = ZListEnvelope(ZTakedownAttempts);
export type TResolutionsResponse = z.infer<typeof ZResolutionsResponse>;

export const ZSnapshotsResponse = ZReadEnvelope(ZSnapshotsData);
export type TSnapshotsResponse = z.infer<typeof ZSnapshotsResponse>;

export const ZUsageResponse = ZReadEnvelope(ZUsage);
export type TUsageResponse = z.infer<typeof ZUsageResponse>;

export const ZUsersResponse = ZOffsetListEnvelope(ZUser);
export type TUsersResponse = z.infer<typeof ZUsersResponse>;
