import type { IncidentRecord } from '../state/model';
import { compareIncidents } from './cursor-page';

export interface IncidentFilters {
  clientIds: readonly string[];
  /** inclusive */
  fromDate?: string;
  /** inclusive */
  toDate?: string;
  status?: string;
  incidentType?: string;
}

/** Incidents of the given clients matching the filters, in list order (newest first). */
export function filterIncidents(
  all: readonly IncidentRecord[],
  f: IncidentFilters,
): IncidentRecord[] {
  const from = f.fromDate ? Date.parse(f.fromDate) : undefined;
  const to = f.toDate ? Date.parse(f.toDate) : undefined;
  return all
    .filter((i) => f.clientIds.includes(i.clientId))
    .filter((i) => from === undefined || Date.parse(i.timestamp) >= from)
    .filter((i) => to === undefined || Date.parse(i.timestamp) <= to)
    .filter((i) => f.status === undefined || i.status === f.status)
    .filter((i) => f.incidentType === undefined || i.incidentType === f.incidentType)
    .sort(compareIncidents);
}
