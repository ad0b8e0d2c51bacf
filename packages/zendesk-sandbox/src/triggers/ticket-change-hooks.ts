import type { SandboxState } from '../state/sandbox-state';
import { indexTicket } from '../state/search-index';
import type { TicketChange, TicketChangeHooks } from '../state/ticket-change';
import type { SandboxUrls } from '../state/urls';
import { fillTemplate, placeholderValues } from './placeholders';
import { runTriggerCycle, type PendingNotification } from './run-triggers';
import type { WebhookDispatcher } from './webhook-dispatcher';

/** What happens around every ticket change, whoever made it: triggers, search indexing, webhooks, listeners. */
export function createTicketChangeHooks(
  state: SandboxState,
  urls: SandboxUrls,
  dispatcher: WebhookDispatcher,
): TicketChangeHooks {
  const pending = new WeakMap<TicketChange, PendingNotification[]>();
  return {
    beforeCommit(change) {
      pending.set(change, runTriggerCycle(change));
    },
    afterCommit(change) {
      const { account, ticket } = change;
      indexTicket(account, ticket, state.now());
      const notifications = pending.get(change) ?? [];
      if (notifications.length > 0) {
        const values = placeholderValues({ account, ticket, actor: change.actor, urls });
        for (const notification of notifications) {
          const webhook = account.webhooks.get(notification.webhookId);
          if (!webhook || webhook.status !== 'active') continue;
          const body = fillTemplate(
            notification.template,
            values,
            webhook.request_format === 'json',
          );
          dispatcher.dispatch(account, webhook, body, {
            triggerId: notification.triggerId,
            ticketId: ticket.id,
          });
        }
      }
      state.emitTicketChanged(account.subdomain, ticket.id);
    },
  };
}
