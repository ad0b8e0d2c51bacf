// A disconnection and a disconnect's result in an admin's words, in the admin's language.
import type { AccountDisconnection, DisconnectStep } from '@incident-desk/admin-contract';
import type { Messages } from './i18n/en';

/** Why incident-desk stopped for the account, and what the admin can do. */
export function disconnectionText(
  disconnection: AccountDisconnection,
  t: Messages['disconnection'],
): { title: string; sentence: string } {
  return t[disconnection.reason];
}

/** One line of the result: "Trigger incident-desk: Report threat — removed". */
export function disconnectStepText(step: DisconnectStep, t: Messages['disconnected']): string {
  const line = `${t.item[step.item]} ${step.target} — ${t.outcome[step.outcome]}`;
  return step.message ? `${line} (${step.message})` : line;
}
