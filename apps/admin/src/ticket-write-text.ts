// The account's ticket-write health in an admin's words: whether incident changes reach its
// tickets, and when not, since when, why and how much waits. Ages count from when the connector
// read the figures (checkedAt), so a browser with a wrong clock still reads them right.
import type { TicketWriteHealth, TTicketWriteCause } from '@incident-desk/admin-contract';

export type TicketWriteTone = 'ok' | 'recovering' | 'late' | 'failing';

export interface TicketWriteText {
  tone: TicketWriteTone;
  /** The tag: "Up to date", "Failing", "Late", "Rate limited". */
  label: string;
  sentence: string;
  /** The admin must authorise incident-desk again for updates to resume. */
  needsAuthorisation: boolean;
}

/** A time of day in the browser's language; a date too when it is not the day of `reference`. */
export function timeOfDay(iso: string, reference: string): string {
  const at = new Date(iso);
  const time = at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  return at.toDateString() === new Date(reference).toDateString()
    ? time
    : `${at.toLocaleDateString([], { day: 'numeric', month: 'short' })} ${time}`;
}

/** 12 s, 4 min, 3 h 5 min. */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

function why(cause: TTicketWriteCause, status: number | null, detail: string | null): string {
  switch (cause) {
    case 'zendesk_5xx':
      return `Zendesk answers ${status ?? 'with a server error'}`;
    case 'zendesk_timeout':
      return 'Zendesk does not answer in time';
    case 'zendesk_connection':
      return 'Zendesk cannot be reached';
    case 'zendesk_rate_limited':
      return 'Zendesk answers 429, too many requests for this account';
    case 'reauthorization_required':
      return 're-authorisation needed';
    case 'zendesk_forbidden':
      return `Zendesk refuses access (403${detail ? `, ${detail}` : ''}): authorise incident-desk again with the scopes it asks for`;
    case 'zendesk_error':
      return status ? `Zendesk answers ${status}` : 'Zendesk’s answer could not be read';
    case 'not_configured':
      return 'the incident connection is not configured';
  }
}

function backlog(health: TicketWriteHealth): string {
  if (health.waiting === 0 || health.oldestWaitingAt === null) return 'no change waiting';
  const age =
    (new Date(health.checkedAt).getTime() - new Date(health.oldestWaitingAt).getTime()) / 1000;
  const changes = health.waiting === 1 ? '1 change' : `${health.waiting} changes`;
  return `${changes} waiting, oldest ${duration(age)}`;
}

export function ticketWriteText(
  health: TicketWriteHealth,
  formatTime: (iso: string, reference: string) => string = timeOfDay,
): TicketWriteText {
  const { failure } = health;
  if (health.state === 'failing' && failure) {
    const rateLimited = failure.cause === 'zendesk_rate_limited';
    const since = formatTime(failure.since, health.checkedAt);
    return {
      tone: 'failing',
      label: rateLimited ? 'Rate limited' : 'Failing',
      sentence: `Ticket updates are ${rateLimited ? 'rate limited' : 'failing'} since ${since}: ${why(failure.cause, failure.status, failure.detail)} (${backlog(health)}).`,
      needsAuthorisation:
        failure.cause === 'reauthorization_required' || failure.cause === 'zendesk_forbidden',
    };
  }
  if (health.state === 'recovering') {
    const since = health.recoveringFrom
      ? ` after the failure at ${formatTime(health.recoveringFrom, health.checkedAt)}`
      : '';
    return {
      tone: 'recovering',
      label: 'Recovering',
      sentence: `Zendesk takes ticket updates again${since}; the changes it held back are being written (${backlog(health)}).`,
      needsAuthorisation: false,
    };
  }
  if (health.state === 'late') {
    return {
      tone: 'late',
      label: 'Late',
      sentence: `Ticket updates are late: ${backlog(health)}, longer than ${duration(health.lateAfterSeconds)}, though Zendesk reports no error.`,
      needsAuthorisation: false,
    };
  }
  return {
    tone: 'ok',
    label: 'Up to date',
    sentence:
      health.waiting === 0
        ? 'Ticket updates reach Zendesk.'
        : `Ticket updates reach Zendesk (${backlog(health)}).`,
    needsAuthorisation: false,
  };
}
