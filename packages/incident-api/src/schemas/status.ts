import { z } from 'zod';
import { isKnownValue, openEnum, type OpenEnum } from './open-enum';

/** The computed, verbose incident status vocabulary (spec: States and transitions). */
export const INCIDENT_STATUSES = [
  'pending_review',
  'case_building',
  'approval_required',
  'takedown_ready',
  'pre_weaponised',
  'takedown_in_progress',
  'takedown_success',
  'takedown_attempt_failed',
  'blocklisted',
  'action_required',
  'closed',
] as const;

export type TKnownIncidentStatus = (typeof INCIDENT_STATUSES)[number];
/** A known status, or a value the service added later. */
export type TIncidentStatus = OpenEnum<TKnownIncidentStatus>;

/** Reader: any string passes. */
export const ZIncidentStatus = openEnum(INCIDENT_STATUSES);
/** Writer (filters we send): only the documented values. */
export const ZKnownIncidentStatus = z.enum(INCIDENT_STATUSES);

export const isKnownIncidentStatus = (status: string): status is TKnownIncidentStatus =>
  isKnownValue(INCIDENT_STATUSES, status);
