// Turns the Threat field's value into the report's target: incidentType + subject for an email,
// E.164 phone or IPv4 value, otherwise url. Validated with the same writer schema the client uses,
// so a value the service would refuse is explained to the agent instead of being sent.
import { formatIssues, ZReportRequest } from '@incident-desk/incident-api';
import { z } from 'zod';
import type { ThreatProblem } from '../../notes';

type TReportTarget =
  { url: string } | { incidentType: 'email' | 'phone' | 'ipv4'; subject: string };

export type TReportTargetResult =
  { ok: true; target: TReportTarget } | { ok: false; problem: ThreatProblem };

const PHONE_LIKE = /^\+[\d\s().-]+$/;
const NUMERIC_ONLY = /^[\d\s().-]+$/;

export function reportTargetOf(rawValue: unknown): TReportTargetResult {
  if (typeof rawValue !== 'string' || rawValue.trim() === '') {
    return { ok: false, problem: { kind: 'empty' } };
  }
  const value = rawValue.trim();
  const target = classify(value);
  // URL parsing reads a bare number or a short dotted one as an IPv4 host: never report those as url
  if ('url' in target && NUMERIC_ONLY.test(value)) {
    return { ok: false, problem: { kind: 'digits_only' } };
  }
  const checked = ZReportRequest.safeParse(target);
  if (!checked.success) {
    return {
      ok: false,
      problem: { kind: 'not_reportable', issues: formatIssues(checked.error.issues) },
    };
  }
  return { ok: true, target };
}

function classify(value: string): TReportTarget {
  const email = value.replace(/^mailto:/i, '');
  if (!email.includes('/') && z.email().safeParse(email).success) {
    return { incidentType: 'email', subject: email };
  }
  // agents paste numbers with separators; E.164 itself is + and digits only
  if (PHONE_LIKE.test(value))
    return { incidentType: 'phone', subject: value.replace(/[^\d+]/g, '') };
  if (z.ipv4().safeParse(value).success) return { incidentType: 'ipv4', subject: value };
  return { url: value };
}
