// The connector's refusal of an admin action in the admin's words, by its error code and the facts
// its answer carries. A code this page does not know yet reads as a generic sentence; an error
// that is not the connector's answer (the network) keeps its own message.
import { ApiError } from './api';
import type { Messages } from './i18n/en';

type Texts = Messages['actionError'];

const stringsOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

/** client_not_covered: the client ids the key lacks, and those it covers ("id (name)"). */
function notCoveredText(facts: Record<string, unknown>, t: Texts): string | undefined {
  const missing = stringsOf(facts.missing);
  if (missing.length === 0) return undefined;
  const covered = stringsOf(facts.covered);
  return t.clientNotCovered(missing.join(', '), covered.join(', ') || t.noClient);
}

function busyText(error: ApiError, t: Texts): string {
  const seconds = (error.body.error as { retryAfterSeconds?: unknown } | undefined)
    ?.retryAfterSeconds;
  if (typeof seconds !== 'number') return t.busyShortly;
  return error.code === 'zendesk_limited' ? t.zendeskBusy(seconds) : t.incidentServiceBusy(seconds);
}

export function actionErrorText(error: unknown, t: Texts): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const code = error.code;
  if (code === 'retry_later' || code === 'zendesk_limited') return busyText(error, t);
  if (code === 'client_not_covered') {
    const facts = error.body.facts;
    const text =
      facts && typeof facts === 'object' ? notCoveredText(facts as Record<string, unknown>, t) : '';
    if (text) return text;
  }
  const known =
    code && Object.prototype.hasOwnProperty.call(t.code, code) ? t.code[code] : undefined;
  return known ?? t.unknown(error.status);
}
