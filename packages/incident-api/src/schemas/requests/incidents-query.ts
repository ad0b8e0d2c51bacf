import type { z } from 'zod';
import { INCIDENT_STATUSES } from '../status';
import {
  booleanParam,
  crossFieldRules,
  enumParam,
  forbiddenParam,
  isoDateParam,
  nonEmptyString,
  strictRequest,
  wholeNumberParam,
} from './fields';

const onlyOnResolutions = (field: string) =>
  forbiddenParam(`${field} is a resolutions filter and is never sent to /v1/incidents`);

/** GET /v1/incidents */
export const ZIncidentsQuery = strictRequest('an incidents query', {
  clientId: nonEmptyString('clientId').optional(),
  fromDate: isoDateParam('fromDate').optional(),
  toDate: isoDateParam('toDate').optional(),
  status: enumParam('status', INCIDENT_STATUSES).optional(),
  incidentType: nonEmptyString('incidentType').optional(),
  limit: wholeNumberParam('limit', 1).optional(),
  cursor: nonEmptyString('cursor').optional(),
  includeTotal: booleanParam('includeTotal').optional(),
  /** deprecated; use status */
  statusVerbose: enumParam('statusVerbose', INCIDENT_STATUSES).optional(),
  reinitiatedAfter: onlyOnResolutions('reinitiatedAfter'),
  minTakedownAttempts: onlyOnResolutions('minTakedownAttempts'),
  search: onlyOnResolutions('search'),
}).superRefine((query, ctx) => {
  if (query.includeTotal === true && query.statusVerbose !== undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['includeTotal'],
      message: 'includeTotal cannot be combined with statusVerbose (use status instead)',
    });
  }
}, crossFieldRules);
export type TIncidentsQuery = z.infer<typeof ZIncidentsQuery>;
