// A disconnection and a disconnect's result in an admin's words.
import type {
  AccountDisconnection,
  DisconnectStep,
  TDisconnectItem,
} from '@incident-desk/admin-contract';

/** Why incident-desk stopped for the account, and what the admin can do. */
export function disconnectionText(disconnection: AccountDisconnection): {
  title: string;
  sentence: string;
} {
  switch (disconnection.reason) {
    case 'app_uninstalled':
      return {
        title: 'The incident-desk app was uninstalled from Zendesk',
        sentence:
          'incident-desk has stopped working for this account: no ticket is updated and no incident event applied. Install the app in Zendesk and authorise incident-desk again to resume, or disconnect to remove what setup created in Zendesk.',
      };
    case 'authorization_lost':
      return {
        title: 'Zendesk no longer accepts incident-desk’s authorisation',
        sentence:
          'incident-desk has stopped working for this account. Authorise it with Zendesk again to resume, or disconnect.',
      };
    case 'admin_disconnect':
      return {
        title: 'A disconnect did not finish',
        sentence: 'incident-desk has stopped working for this account. Disconnect again to finish.',
      };
  }
}

const ITEMS: Record<TDisconnectItem, string> = {
  view: 'View',
  trigger: 'Trigger',
  zendesk_webhook: 'Zendesk webhook',
  ticket_field: 'Ticket field',
  incident_subscription: 'Incident service subscription of client',
  oauth_token: 'Zendesk authorisation',
  account_data: 'Stored data',
};

const OUTCOMES: Record<DisconnectStep['outcome'], string> = {
  removed: 'removed',
  already_gone: 'already gone',
  kept: 'kept',
  failed: 'not removed: remove it by hand',
  skipped: 'not removed',
};

/** One line of the result: "Trigger incident-desk: Report threat — removed". */
export function disconnectStepText(step: DisconnectStep): string {
  const line = `${ITEMS[step.item]} ${step.target} — ${OUTCOMES[step.outcome]}`;
  return step.message ? `${line} (${step.message})` : line;
}
