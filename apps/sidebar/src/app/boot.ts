import ZAFClient from 'zendesk_app_framework_sdk';
import { prefetchTicketView } from './api/prefetchedView';
import { loadDictionary } from './lib/i18n';
import { markStage } from './lib/perfMarks';
import { getSessionFacts } from './zaf/sessionFacts';
import { sessionOf } from './zaf/sessionOf';
import type { ZafClient } from './zaf/zafClient';

/**
 * The start-up work that needs no React, begun while the UI's code is still loading: the ZAF
 * handshake, the one `get` for agent, ticket and account (the SDK holds it until Zendesk has
 * registered the app), the agent's locale and the connector's view. The providers then find the
 * answers waiting (getSessionFacts and the prefetched view are shared, not asked twice).
 * Returns the client, or false outside Zendesk.
 */
export function startLoading(
  init: () => ZafClient | false = () => ZAFClient.init(),
): ZafClient | false {
  markStage('boot');
  const client = init();
  if (!client) return false;
  const facts = getSessionFacts(client);
  const registered = Promise.all([client.metadata(), client.context()]);
  registered.then(() => markStage('zaf-registered')).catch(() => undefined);
  Promise.all([registered, facts])
    .then(([[metadata, context], answer]) => {
      markStage('session-facts');
      const user = answer.currentUser as { locale?: unknown } | undefined;
      if (typeof user?.locale === 'string') void loadDictionary(user.locale);
      const session = sessionOf(metadata ?? {}, context ?? {}, answer);
      if (session.status !== 'ready') return;
      prefetchTicketView(client, session.ticketId);
    })
    // Nothing to do here: the providers ask again and show the error with a retry.
    .catch(() => undefined);
  return client;
}
