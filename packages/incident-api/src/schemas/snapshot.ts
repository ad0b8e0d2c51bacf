import { z } from 'zod';
import { ZTimestamp } from './common';
import { ZSnapshotType } from './vocabularies';

// dns, whois and certificate are passed through as captured: every key inside is optional.

export const ZSnapshotDnsRecordSet = z.looseObject({
  records: z.array(z.string()).optional(),
  /** e.g. NOERROR, NXDOMAIN */
  rcode: z.string().optional(),
});
export type TSnapshotDnsRecordSet = z.infer<typeof ZSnapshotDnsRecordSet>;

/** Keyed by record type (A, MX, NS ...). */
export const ZSnapshotDns = z.record(z.string(), ZSnapshotDnsRecordSet);
export type TSnapshotDns = z.infer<typeof ZSnapshotDns>;

/** Dates here are date-only strings. */
export const ZSnapshotWhois = z.looseObject({
  domain: z.string().optional(),
  registrarIANAId: z.string().optional(),
  createdDate: z.string().optional(),
  updatedDate: z.string().optional(),
  expiryDate: z.string().optional(),
});
export type TSnapshotWhois = z.infer<typeof ZSnapshotWhois>;

export const ZSnapshotCertificate = z.looseObject({
  issuer: z.string().optional(),
  subject: z.string().optional(),
  validFrom: z.string().optional(),
  validTo: z.string().optional(),
  sanEntries: z.array(z.string()).optional(),
});
export type TSnapshotCertificate = z.infer<typeof ZSnapshotCertificate>;

/** A snapshot reflects its own timestamp, not the present state. */
export const ZSnapshot = z.looseObject({
  id: z.string(),
  incidentId: z.string(),
  type: ZSnapshotType,
  timestamp: ZTimestamp,
  description: z.string().optional(),
  dns: ZSnapshotDns.optional(),
  whois: ZSnapshotWhois.optional(),
  certificate: ZSnapshotCertificate.optional(),
});
export type TSnapshot = z.infer<typeof ZSnapshot>;

/** `data` of GET /v1/incident/{incidentId}/snapshots; snapshots newest first. */
export const ZSnapshotsData = z.looseObject({
  incidentId: z.string(),
  snapshots: z.array(ZSnapshot),
});
export type TSnapshotsData = z.infer<typeof ZSnapshotsData>;
