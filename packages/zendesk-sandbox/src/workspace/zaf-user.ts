import type { WorkspaceUser } from '../workspace-deps';

// Zendesk stores Rails time zone names; ZAF reports the IANA name too. A few common ones are mapped,
// IANA names pass through, anything else is reported as UTC.
const RAILS_TO_IANA: Record<string, string> = {
  UTC: 'Etc/UTC',
  'Eastern Time (US & Canada)': 'America/New_York',
  'Central Time (US & Canada)': 'America/Chicago',
  'Mountain Time (US & Canada)': 'America/Denver',
  'Pacific Time (US & Canada)': 'America/Los_Angeles',
  London: 'Europe/London',
  Dublin: 'Europe/Dublin',
  Paris: 'Europe/Paris',
  Berlin: 'Europe/Berlin',
  Amsterdam: 'Europe/Amsterdam',
  Copenhagen: 'Europe/Copenhagen',
  Madrid: 'Europe/Madrid',
  Tokyo: 'Asia/Tokyo',
  Sydney: 'Australia/Sydney',
};

function isIanaZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return name.includes('/') || name === 'UTC';
  } catch {
    return false;
  }
}

export function zafTimeZone(timeZone: string, now = new Date()) {
  const ianaName = RAILS_TO_IANA[timeZone] ?? (isIanaZone(timeZone) ? timeZone : 'Etc/UTC');
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: ianaName,
    timeZoneName: 'longOffset',
  }).formatToParts(now);
  const gmt = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(gmt);
  const offset = match
    ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]))
    : 0;
  const formattedOffset = match ? `GMT${match[1]}${match[2]}:${match[3]}` : 'GMT+00:00';
  return { name: timeZone, ianaName, offset, formattedOffset };
}

/** `currentUser` as ZAF reports it (the exact shape is unconfirmed: these are the documented keys). */
export function zafCurrentUser(user: WorkspaceUser) {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    locale: user.locale,
    timeZone: zafTimeZone(user.time_zone),
    // ZAF's Group objects: the agent's group memberships
    groups: (user.groups ?? []).map((g) => ({ id: g.id, name: g.name })),
  };
}

/** A ticket's requester as `ticket.requester` reports it. */
export function zafUser(user: WorkspaceUser) {
  return { id: user.id, name: user.name, email: user.email, role: user.role, locale: user.locale };
}
