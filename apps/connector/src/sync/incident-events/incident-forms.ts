// An incident has more than one id: a report answers with an `inc_` reference, events, lists and
// the detail may name it by another, and the service accepts either. Nothing is inferred from a
// prefix: the detail read under one id names the other. A link keeps the detail's id as
// `incident_id` and the other known form, when there is one, as `report_ref`; the link lookup
// matches either.
import type { TDetailedIncident } from '@incident-desk/incident-api';
import type { AccountContext } from '../../accounts';
import { isTransientFailure } from '../service-failure';

export interface IncidentForms {
  /** The id the service's detail names the incident by (else the only id known). */
  incidentId: string;
  /** Another id known to name the same incident, or null. */
  otherForm: string | null;
}

/** The forms known from the detail's id and any ids seen naming the same incident. */
export function incidentForms(detailId: string | null, ...seen: readonly string[]): IncidentForms {
  const incidentId = detailId ?? seen[0];
  if (incidentId === undefined) throw new Error('an incident needs at least one id');
  return { incidentId, otherForm: seen.find((id) => id !== incidentId) ?? null };
}

/**
 * The incident's detail read under `id`; null when the service does not know it (404) or refuses
 * the read for good. A transient failure is thrown: the job is tried again.
 */
export async function readDetailOrNull(
  ctx: AccountContext,
  id: string,
  clientId?: string,
): Promise<TDetailedIncident | null> {
  try {
    return await ctx.incidents(clientId).incidents.retrieve(id);
  } catch (error) {
    if (isTransientFailure(error)) throw error;
    return null;
  }
}
