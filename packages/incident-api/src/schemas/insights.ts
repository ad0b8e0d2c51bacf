import { z } from 'zod';
import { ZTimestamp } from './common';

// Insights come from captures, which are partial by nature: every field inside a category is
// optional (see assumptions.ts). An absent category means "not captured", never a negative finding.
// isNewDomain, isExpired, isValid and domainAgeDays may be null = undetermined (not false / not 0).

export const ZDnsInsights = z.looseObject({
  recordTypes: z.array(z.string()).optional(),
  recordCounts: z.record(z.string(), z.number()).optional(),
});
export type TDnsInsights = z.infer<typeof ZDnsInsights>;

export const ZWhoisInsights = z.looseObject({
  domain: z.string().optional(),
  registrar: z.string().optional(),
  registrarIANAId: z.string().optional(),
  createdDate: ZTimestamp.optional(),
  updatedDate: ZTimestamp.optional(),
  expiryDate: ZTimestamp.optional(),
  /** whole days; null = undetermined */
  domainAgeDays: z.number().nullable().optional(),
  /** null = undetermined, not false */
  isNewDomain: z.boolean().nullable().optional(),
  /** null = undetermined, not false */
  isExpired: z.boolean().nullable().optional(),
  statuses: z.array(z.string()).optional(),
});
export type TWhoisInsights = z.infer<typeof ZWhoisInsights>;

export const ZCertificateInsights = z.looseObject({
  issuer: z.string().optional(),
  subject: z.string().optional(),
  validFrom: ZTimestamp.optional(),
  validTo: ZTimestamp.optional(),
  /** null = undetermined, not false */
  isValid: z.boolean().nullable().optional(),
  subjectAltNames: z.array(z.string()).optional(),
});
export type TCertificateInsights = z.infer<typeof ZCertificateInsights>;

export const ZHostingProvider = z.looseObject({
  ip: z.string().optional(),
  network: z.string().optional(),
  organization: z.string().optional(),
  isCdn: z.boolean().optional(),
  abuseEmails: z.array(z.string()).optional(),
});
export type THostingProvider = z.infer<typeof ZHostingProvider>;

export const ZOriginHint = z.looseObject({
  ip: z.string().optional(),
  organization: z.string().optional(),
  abuseEmails: z.array(z.string()).optional(),
});
export type TOriginHint = z.infer<typeof ZOriginHint>;

/** Only when the richer capture ran. */
export const ZHostingInsights = z.looseObject({
  cdnDetected: z.boolean().optional(),
  cdnName: z.string().optional(),
  providers: z.array(ZHostingProvider).optional(),
  originHints: z.array(ZOriginHint).optional(),
});
export type THostingInsights = z.infer<typeof ZHostingInsights>;

/** Only when the richer capture ran. */
export const ZPageInsights = z.looseObject({
  title: z.string().optional(),
  metaDescription: z.string().optional(),
  headings: z.array(z.string()).optional(),
  linkCount: z.number().optional(),
  formInputCount: z.number().optional(),
  imageCount: z.number().optional(),
});
export type TPageInsights = z.infer<typeof ZPageInsights>;

export const ZScrapeRoute = z.looseObject({
  method: z.string().optional(),
  uaType: z.string().optional(),
  proxyType: z.string().optional(),
  country: z.string().optional(),
  exitIp: z.string().optional(),
  mobileExit: z.boolean().optional(),
});
export type TScrapeRoute = z.infer<typeof ZScrapeRoute>;

/** Only when the richer capture ran. */
export const ZIndicatorsInsights = z.looseObject({
  finalUrl: z.string().optional(),
  requestedUrl: z.string().optional(),
  redirectChain: z.array(z.string()).optional(),
  ssdeepHash: z.string().optional(),
  pHash: z.string().optional(),
  captureDurationMs: z.number().optional(),
  scrapeRoute: ZScrapeRoute.optional(),
});
export type TIndicatorsInsights = z.infer<typeof ZIndicatorsInsights>;

/** From the most recent snapshot that carried data. */
export const ZIncidentInsights = z.looseObject({
  snapshotTimestamp: ZTimestamp,
  dns: ZDnsInsights.optional(),
  whois: ZWhoisInsights.optional(),
  certificate: ZCertificateInsights.optional(),
  hosting: ZHostingInsights.optional(),
  page: ZPageInsights.optional(),
  indicators: ZIndicatorsInsights.optional(),
});
export type TIncidentInsights = z.infer<typeof ZIncidentInsights>;
