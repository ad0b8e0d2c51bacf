import { z } from 'zod';
import { openEnum } from './open-enum';

// Values the spec shows. Readers accept any string (see open-enum.ts); writers use the lists.

/** Values seen; the full set is not shown. */
export const INCIDENT_TYPES = ['domain', 'social', 'email', 'phone', 'ipv4'] as const;
export const ZIncidentType = openEnum(INCIDENT_TYPES);

/** incidentType values a report may carry (the non-domain/url observables). */
export const REPORT_INCIDENT_TYPES = ['email', 'phone', 'ipv4'] as const;

/** Only three of the six values are shown; unclassified incidents carry `other`. */
export const INCIDENT_CLASSES = ['phishing', 'infringement', 'other'] as const;
export const ZIncidentClass = openEnum(INCIDENT_CLASSES);

/** Full set of source values: not shown. */
export const ZIncidentSource = z.string();

export const SNAPSHOT_TYPES = ['incident_created', 'incident_status_updated'] as const;
export const ZSnapshotType = openEnum(SNAPSHOT_TYPES);

/** Allowed values of registrar.difficulty: not shown. */
export const ZRegistrarDifficulty = z.string();

export const BLOCKLIST_TYPES = ['warning-banner', 'blocklist'] as const;
export const ZBlocklistType = openEnum(BLOCKLIST_TYPES);

export const BLOCKLIST_STATUSES = ['listed', 'submitted'] as const;
export const ZBlocklistStatus = openEnum(BLOCKLIST_STATUSES);

export const TAKEDOWN_OUTCOMES = ['success', 'failed', 'not_actionable', 'closed'] as const;
export const ZTakedownOutcome = openEnum(TAKEDOWN_OUTCOMES);

export const USER_ROLES = ['superuser', 'parentadmin', 'user', 'admin'] as const;
export const ZUserRole = openEnum(USER_ROLES);

export const DOCUMENT_TYPES = ['loa', 'trademark_registration', 'exec_loa', 'file'] as const;
export const ZDocumentType = openEnum(DOCUMENT_TYPES);

export const REINITIATED_AFTER_VALUES = ['success', 'resolved'] as const;
