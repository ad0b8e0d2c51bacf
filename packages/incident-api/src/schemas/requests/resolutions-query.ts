import type { z } from 'zod';
import { INCIDENT_STATUSES } from '../status';
import { REINITIATED_AFTER_VALUES } from '../vocabularies';
import {
  booleanParam,
  crossFieldRules,
  enumParam,
  isoDateParam,
  nonEmptyString,
  strictRequest,
  wholeNumberParam,
} from './fields';

const COMBINABLE_WITH_SEARCH = new Set(['search', 'clientId', 'limit']);
const ATTEMPT_FILTERS = ['reinitiatedAfter', 'minTakedownAttempts'] as const;

/** GET /v1/incidents/resolutions, with the spec's filter rules (400 combinations). */
export const ZResolutionsQuery = strictRequest('a resolutions query', {
  limit: wholeNumberParam('limit', 1, 100).optional(),
  cursor: nonEmptyString('cursor').optional(),
  clientId: nonEmptyString('clientId').optional(),
  fromDate: isoDateParam('fromDate').optional(),
  toDate: isoDateParam('toDate').optional(),
  status: enumParam('status', INCIDENT_STATUSES).optional(),
  incidentType: nonEmptyString('incidentType').optional(),
  reinitiatedAfter: enumParam('reinitiatedAfter', REINITIATED_AFTER_VALUES).optional(),
  minTakedownAttempts: wholeNumberParam('minTakedownAttempts', 1, 100000).optional(),
  includeTotal: booleanParam('includeTotal').optional(),
  /** incident id or value under attack */
  search: nonEmptyString('search').optional(),
  /** deprecated; use status */
  statusVerbose: enumParam('statusVerbose', INCIDENT_STATUSES).optional(),
}).superRefine((query, ctx) => {
  const present = Object.entries(query)
    .filter(([, value]) => value !== undefined)
    .map(([key]) => key);
  if (query.search !== undefined) {
    for (const key of present.filter((k) => !COMBINABLE_WITH_SEARCH.has(k))) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `${key} cannot be combined with search (search combines only with clientId and limit)`,
      });
    }
    return;
  }
  if (query.statusVerbose !== undefined) {
    for (const key of ATTEMPT_FILTERS.filter((k) => query[k] !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `${key} cannot be combined with statusVerbose`,
      });
    }
  }
}, crossFieldRules);
export type TResolutionsQuery = z.infer<typeof ZResolutionsQuery>;
