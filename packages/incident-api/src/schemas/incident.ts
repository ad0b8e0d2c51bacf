import { z } from 'zod';
import { ZTimestamp } from './common';
import { ZIncidentStatus } from './status';
import { ZIncidentClass, ZIncidentSource, ZIncidentType } from './vocabularies';

/** threatTaxonomy as carried by list items. */
export const ZThreatTaxonomy = z.looseObject({
  name: z.string(),
  /** may be empty */
  description: z.string(),
});
export type TThreatTaxonomy = z.infer<typeof ZThreatTaxonomy>;

/** IncidentStructure (list items). Every incident has a url, a domain, or both. */
export const ZIncident = z.looseObject({
  id: z.string(),
  clientId: z.string().optional(),
  safeDomain: z.string(),
  subject: z.string().optional(),
  incidentType: ZIncidentType,
  domain: z.string().optional(),
  url: z.string().optional(),
  source: ZIncidentSource,
  status: ZIncidentStatus,
  timestamp: ZTimestamp,
  lastHistoryUpdateTimestamp: ZTimestamp.optional(),
  burnStartedTimestamp: ZTimestamp.optional(),
  takedownTimestamp: ZTimestamp.optional(),
  reportedBy: z.string().optional(),
  threatTaxonomy: ZThreatTaxonomy.optional(),
  incidentClass: ZIncidentClass,
});
export type TIncident = z.infer<typeof ZIncident>;
