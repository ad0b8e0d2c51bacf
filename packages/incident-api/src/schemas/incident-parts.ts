import { z } from 'zod';
import { ZTimestamp } from './common';
import { ZBlocklistStatus, ZBlocklistType, ZRegistrarDifficulty } from './vocabularies';

export const ZTypeReference = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
});
export type TTypeReference = z.infer<typeof ZTypeReference>;

/** threatTaxonomy as carried by the single-incident detail. */
export const ZThreatTaxonomyExpanded = z.looseObject({
  name: z.string(),
  description: z.string(),
  incidentClass: z.string().optional(),
  incidentTargetType: ZTypeReference.optional(),
  incidentType: ZTypeReference.optional(),
  incidentThreatType: ZTypeReference.optional(),
});
export type TThreatTaxonomyExpanded = z.infer<typeof ZThreatTaxonomyExpanded>;

/** The author classification on history entries is not shown; it passes through as extra keys. */
export const ZIncidentHistory = z.looseObject({
  timestamp: ZTimestamp,
  message: z.string(),
});
export type TIncidentHistory = z.infer<typeof ZIncidentHistory>;

/** Live state from the last scan. */
export const ZIncidentState = z.looseObject({
  unresponsive: z.boolean(),
  warningBanner: z.boolean(),
  responsive: z.boolean(),
  contentRemoved: z.boolean(),
  redirect: z.boolean(),
  inconclusive: z.boolean(),
  timestamp: ZTimestamp,
});
export type TIncidentState = z.infer<typeof ZIncidentState>;

export const ZRegistrar = z.looseObject({
  name: z.string().optional(),
  difficulty: ZRegistrarDifficulty.optional(),
  description: z.string().optional(),
});
export type TRegistrar = z.infer<typeof ZRegistrar>;

/** A partner submission made while a takedown runs. `submitted` is progress, not failure. */
export const ZBlocklistListing = z.looseObject({
  authority: z.string(),
  type: ZBlocklistType,
  status: ZBlocklistStatus,
  /** null while submitted */
  listedAt: ZTimestamp.nullable(),
  /** null when the partner gives no public page; independent of status */
  link: z.string().nullable(),
});
export type TBlocklistListing = z.infer<typeof ZBlocklistListing>;
