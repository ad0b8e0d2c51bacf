import { z } from 'zod';
import { ZIncident } from './incident';
import {
  ZBlocklistListing,
  ZIncidentHistory,
  ZIncidentState,
  ZRegistrar,
  ZThreatTaxonomyExpanded,
} from './incident-parts';
import { ZIncidentInsights } from './insights';

/** DetailedIncidentStructure (single incident): every list field, clientId always present. */
export const ZDetailedIncident = ZIncident.extend({
  clientId: z.string(),
  threatTaxonomy: ZThreatTaxonomyExpanded.optional(),
  /** newest first */
  history: z.array(ZIncidentHistory),
  incidentState: ZIncidentState,
  registrar: ZRegistrar.optional(),
  hostingProvider: z.string().optional(),
  /** empty = nothing submitted */
  blocklists: z.array(ZBlocklistListing),
  /** absent when no snapshot carries data */
  insights: ZIncidentInsights.optional(),
});
export type TDetailedIncident = z.infer<typeof ZDetailedIncident>;
