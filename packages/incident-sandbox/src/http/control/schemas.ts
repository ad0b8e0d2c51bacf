import { z } from 'zod';
import { STATUSES } from '../../domain/statuses';
import { ATTEMPT_OUTCOMES, DOC_TYPES, INCIDENT_TYPES, USER_ROLES } from '../../domain/vocabulary';

const isoDate = z.iso.datetime({ offset: true });
const credits = z.union([z.number().int().min(0), z.literal('unlimited'), z.null()]);

export const ZCreateClient = z.strictObject({
  id: z.string().min(1).optional(),
  name: z.string().min(1),
  parentClientId: z.string().nullable().optional(),
  safeDomain: z.string().min(1).optional(),
  active: z.boolean().optional(),
  resolutionsEnabled: z.boolean().optional(),
  credits: credits.optional(),
  creditsExpireAt: isoDate.nullable().optional(),
  approvalConsumesCredit: z.boolean().optional(),
});

export const ZUpdateClient = ZCreateClient.omit({ id: true }).partial();

export const ZCreateKey = z.strictObject({
  key: z.string().min(8).optional(),
  clientId: z.string().min(1),
  /** Further clients the key may act for (the owner is always included). */
  clientIds: z.array(z.string().min(1)).optional(),
  scopes: z.array(z.string()).optional(),
});

export const ZCreateUser = z.strictObject({
  email: z.email(),
  name: z.string().nullable().optional(),
  surname: z.string().nullable().optional(),
  roles: z.array(z.enum(USER_ROLES)).min(1),
  clientId: z.string().nullable(),
  mfaEnabled: z.boolean().optional(),
});

export const ZCreateDocument = z.strictObject({
  clientId: z.string().min(1),
  docType: z.enum(DOC_TYPES),
  fileName: z.string().nullable().optional(),
  uploadedBy: z
    .strictObject({
      id: z.string().optional(),
      email: z.string().optional(),
      name: z.string().optional(),
      surname: z.string().optional(),
    })
    .nullable()
    .optional(),
});

export const ZSeedIncident = z.strictObject({
  clientId: z.string().min(1),
  url: z.string().optional(),
  incidentType: z.enum(INCIDENT_TYPES).optional(),
  subject: z.string().optional(),
  status: z.enum(STATUSES).optional(),
  timestamp: isoDate.optional(),
  reportedBy: z.string().optional(),
  source: z.string().optional(),
  incidentClass: z.string().optional(),
  hostingProvider: z.string().optional(),
  registrar: z
    .strictObject({
      name: z.string().optional(),
      difficulty: z.string().optional(),
      description: z.string().optional(),
    })
    .optional(),
  threatTaxonomy: z.looseObject({ name: z.string(), description: z.string() }).optional(),
  /** Emit incident.created / history_created like a report does (default true). */
  emitEvents: z.boolean().optional(),
});

export const ZAdvance = z.strictObject({
  status: z.enum(STATUSES),
  message: z.string().min(1).optional(),
  /** Carried by incident.action_required when moving to action_required. */
  waitForClient: z.string().min(1).optional(),
  analyst: z.string().optional(),
  /** Bypass the analyst transition graph. */
  force: z.boolean().optional(),
  /** Also record an incident_status_updated capture (web incidents only). */
  snapshot: z.boolean().optional(),
});

export const ZHistoryMessage = z.strictObject({
  message: z.string().min(1),
  analyst: z.string().optional(),
});

export const ZBlocklist = z.strictObject({
  authority: z.string().min(1),
  type: z.enum(['warning-banner', 'blocklist']),
  status: z.enum(['listed', 'submitted']),
  listedAt: isoDate.nullable().optional(),
  link: z.string().nullable().optional(),
});

export const ZSnapshot = z.strictObject({
  type: z.string().optional(),
  timestamp: isoDate.optional(),
  description: z.string().optional(),
  dns: z
    .record(
      z.string(),
      z.looseObject({ records: z.array(z.string()).optional(), rcode: z.string().optional() }),
    )
    .optional(),
  whois: z.record(z.string(), z.string()).optional(),
  certificate: z.record(z.string(), z.unknown()).optional(),
  /** Insight categories (dns, whois, certificate, hosting, page, indicators) derived from this capture. */
  insights: z.record(z.string(), z.unknown()).optional(),
});

export const ZAttempt = z.strictObject({
  startedAt: isoDate.nullable(),
  resolvedAt: isoDate.nullable().optional(),
  outcome: z.enum(ATTEMPT_OUTCOMES).nullable().optional(),
});

export const ZPatchIncident = z.strictObject({
  /** Reading this incident fails, so any resolutions page holding it answers 404. */
  unreadable: z.boolean().optional(),
  incidentState: z.looseObject({}).optional(),
  hostingProvider: z.string().optional(),
  incidentClass: z.string().optional(),
});

export const ZSettings = z.strictObject({
  duplicateResponse: z.enum(['conflict', 'legacy']).optional(),
  omitOptionalPayloadFields: z.enum(['never', 'sometimes', 'always']).optional(),
  statusOmitRate: z.number().min(0).max(1).optional(),
  deliveryJitterMs: z.number().int().min(0).max(600_000).optional(),
  attemptVisibilityLagMs: z.number().int().min(0).max(3_600_000).optional(),
});

export const ZReset = z.strictObject({ seed: z.boolean().optional() });
