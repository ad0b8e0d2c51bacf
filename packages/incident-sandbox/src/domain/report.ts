import type { IncidentRecord } from '../state/model';
import type { SandboxStore } from '../state/store';
import type { EventSink } from './events';
import { addHistory } from './history';
import { classifyUrl, isE164Phone, isEmail, isIpv4 } from './subject-formats';
import type { TIncidentType } from './vocabulary';

export interface ReportInput {
  url?: string;
  incidentType?: string;
  subject?: string;
  reportedBy?: string;
  comment?: string;
  attachments: { fileName: string; size: number; contentType: string }[];
}

/** A report field that breaks a format rule; the message has the README's `Invalid parameter '<field>':` form. */
export class ReportValidationError extends Error {
  constructor(
    readonly field: string,
    readonly problem: string,
  ) {
    super(`Invalid parameter '${field}': ${problem}`);
  }
}

export interface ReportTarget {
  incidentType: TIncidentType;
  subject: string;
  url?: string;
  domain?: string;
}

/** Format rules of the report endpoints: url or domain, or subject by incidentType, phone as E.164. */
export function resolveReportTarget(input: ReportInput): ReportTarget {
  const type = input.incidentType;
  if (type === undefined || type === 'domain' || type === 'url') {
    const raw = input.url ?? input.subject;
    if (raw === undefined || raw.trim() === '') {
      throw new ReportValidationError(
        'url',
        "is required for domain and URL incidents unless 'subject' is given",
      );
    }
    const target = classifyUrl(raw);
    if (!target)
      throw new ReportValidationError(
        input.url !== undefined ? 'url' : 'subject',
        'must be a valid URL or domain',
      );
    return target;
  }
  if (type !== 'email' && type !== 'phone' && type !== 'ipv4') {
    throw new ReportValidationError('incidentType', 'must be one of email, phone, ipv4');
  }
  const subject = input.subject?.trim();
  if (!subject)
    throw new ReportValidationError('subject', `is required when incidentType is ${type}`);
  const valid =
    type === 'email' ? isEmail(subject) : type === 'phone' ? isE164Phone(subject) : isIpv4(subject);
  if (!valid) {
    const expected =
      type === 'email'
        ? 'an email address'
        : type === 'phone'
          ? 'an E.164 phone number'
          : 'an IPv4 address';
    throw new ReportValidationError('subject', `must be ${expected}`);
  }
  return { incidentType: type, subject: type === 'email' ? subject.toLowerCase() : subject };
}

export function findDuplicate(
  store: SandboxStore,
  clientId: string,
  target: ReportTarget,
): IncidentRecord | undefined {
  const key = target.subject.toLowerCase();
  return store.state.incidents.find(
    (i) => i.clientId === clientId && i.status !== 'closed' && i.subject.toLowerCase() === key,
  );
}

const DEFAULT_STATE = {
  unresponsive: false,
  warningBanner: false,
  responsive: false,
  contentRemoved: false,
  redirect: false,
  inconclusive: true,
};

export interface NewIncident extends ReportTarget {
  clientId: string;
  requestedAction: 'takedown' | 'monitor';
  source?: string;
  reportedBy?: string;
  comment?: string;
  attachments?: IncidentRecord['attachments'];
  timestamp?: string;
}

/** Creates an incident as a report does: pending review, one history entry, a first capture for web targets. */
export function createIncident(
  store: SandboxStore,
  sink: EventSink,
  input: NewIncident,
): IncidentRecord {
  const client = store.client(input.clientId);
  const now = input.timestamp ?? store.now();
  const id = store.newId('incident', '', 24);
  const incident: IncidentRecord = {
    id,
    ref: store.newId('incident-ref', 'inc_', 16),
    clientId: input.clientId,
    safeDomain: client?.safeDomain ?? 'unknown.example',
    incidentType: input.incidentType,
    subject: input.subject,
    url: input.url,
    domain: input.domain,
    source: input.source ?? 'api',
    status: 'pending_review',
    timestamp: now,
    lastHistoryUpdateTimestamp: now,
    reportedBy: input.reportedBy,
    incidentClass: 'other',
    history: [],
    incidentState: { ...DEFAULT_STATE, timestamp: now },
    blocklists: [],
    snapshots: [],
    takedownAttempts: [],
    requestedAction: input.requestedAction,
    attachments: input.attachments ?? [],
    comments: input.comment
      ? [{ timestamp: now, comment: input.comment, author: input.reportedBy ?? 'api' }]
      : [],
    unreadable: false,
  };
  if (!['email', 'phone', 'ipv4'].includes(input.incidentType)) {
    const host = input.domain ?? input.subject;
    incident.snapshots.unshift({
      id: store.newId('snapshot', 'snap_', 16),
      incidentId: id,
      type: 'incident_created',
      timestamp: now,
      description: 'Initial capture',
      dns: { A: { records: [], rcode: 'NOERROR' } },
      whois: { domain: host },
    });
  }
  store.state.incidents.push(incident);
  sink.emit({
    event: 'incident.created',
    clientId: incident.clientId,
    incidentId: id,
    data: { incidentId: id },
    optional: {
      status: incident.status,
      incidentType: incident.incidentType,
      subject: incident.subject,
    },
  });
  addHistory(
    incident,
    {
      timestamp: now,
      message:
        input.requestedAction === 'monitor'
          ? 'Incident reported for monitoring'
          : 'Incident reported for takedown',
      author: input.reportedBy ? { type: 'client', email: input.reportedBy } : { type: 'system' },
    },
    sink,
  );
  return incident;
}
