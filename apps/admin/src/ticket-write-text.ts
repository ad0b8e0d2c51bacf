// The account's ticket-write health in an admin's words (English unless told the admin's texts): whether incident changes reach its
// tickets, and when not, since when, why and how much waits. Ages count from when the connector
// read the figures (checkedAt), so a browser with a wrong clock still reads them right.
import type { TicketWriteHealth, TTicketWriteCause } from '@incident-desk/admin-contract';
import { en, type Messages } from './i18n/en';

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

type Texts = Messages['ticketWrites'];

function why(cause: TTicketWriteCause, status: number | null, detail: string | null, t: Texts) {
  switch (cause) {
    case 'zendesk_5xx':
    case 'zendesk_error':
      return t.why[cause](status);
    case 'zendesk_forbidden':
      return t.why.zendesk_forbidden(detail);
    default:
      return t.why[cause];
  }
}

function backlog(health: TicketWriteHealth, t: Texts): string {
  if (health.waiting === 0 || health.oldestWaitingAt === null) return t.noChangeWaiting;
  const age =
    (new Date(health.checkedAt).getTime() - new Date(health.oldestWaitingAt).getTime()) / 1000;
  return t.backlog(health.waiting, duration(age));
}

export function ticketWriteText(
  health: TicketWriteHealth,
  formatTime: (iso: string, reference: string) => string = timeOfDay,
  t: Texts = en.ticketWrites,
): TicketWriteText {
  const { failure } = health;
  if (health.state === 'failing' && failure) {
    const rateLimited = failure.cause === 'zendesk_rate_limited';
    const since = formatTime(failure.since, health.checkedAt);
    const reason = why(failure.cause, failure.status, failure.detail, t);
    return {
      tone: 'failing',
      label: rateLimited ? t.label.rateLimited : t.label.failing,
      sentence: t.failingSentence(rateLimited, since, reason, backlog(health, t)),
      needsAuthorisation:
        failure.cause === 'reauthorization_required' || failure.cause === 'zendesk_forbidden',
    };
  }
  if (health.state === 'recovering') {
    const failedAt = health.recoveringFrom
      ? formatTime(health.recoveringFrom, health.checkedAt)
      : null;
    return {
      tone: 'recovering',
      label: t.label.recovering,
      sentence: t.recoveringSentence(failedAt, backlog(health, t)),
      needsAuthorisation: false,
    };
  }
  if (health.state === 'late') {
    return {
      tone: 'late',
      label: t.label.late,
      sentence: t.lateSentence(backlog(health, t), duration(health.lateAfterSeconds)),
      needsAuthorisation: false,
    };
  }
  return {
    tone: 'ok',
    label: t.label.ok,
    sentence: t.okSentence(health.waiting === 0 ? null : backlog(health, t)),
    needsAuthorisation: false,
  };
}
