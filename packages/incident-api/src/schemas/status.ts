import { z } from 'zod';
import { INCIDENT_STATUSES, type TKnownIncidentStatus } from '../statuses';
import { isKnownValue, openEnum, type OpenEnum } from './open-enum';

export { INCIDENT_STATUSES, type TKnownIncidentStatus };
/** A known status, or a value the service added later. */
export type TIncidentStatus = OpenEnum<TKnownIncidentStatus>;

/** Reader: any string passes. */
export const ZIncidentStatus = openEnum(INCIDENT_STATUSES);
/** Writer (filters we send): only the documented values. */
export const ZKnownIncidentStatus = z.enum(INCIDENT_STATUSES);

export const isKnownIncidentStatus = (status: string): status is TKnownIncidentStatus =>
  isKnownValue(INCIDENT_STATUSES, status);
