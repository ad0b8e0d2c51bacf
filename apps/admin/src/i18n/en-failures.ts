// English for what the connector reports in codes: a failed sync (what failed, why, what Retry
// does) and how a setup run ended. The English reads as the connector's sentences always did.
import type {
  TFailedWork,
  TFailureParty,
  TZendeskWebhookTest,
} from '@incident-desk/admin-contract';

type WebhookTestTrouble = Exclude<TZendeskWebhookTest['outcome'], 'delivered' | 'refused'>;

export const failureMessages = {
  failedSync: {
    /** What failed, by the connector's work code. */
    work: {
      ticket_report: 'Reporting the ticket’s threat to the incident service failed.',
      ticket_comments: 'Forwarding the ticket’s new comments to the incident failed.',
      ticket_action: 'Sending the ticket’s action request to the incident failed.',
      ticket_change: 'Sending a ticket change to the incident service failed.',
      incident_update: 'Applying an incident update to its ticket failed.',
      ticket_write: 'Writing the incident’s changes to the ticket failed.',
      account_setup: 'Setup of the account failed on every attempt.',
      comment_forward: 'Forwarding a comment of the ticket to the incident failed.',
      background_job: 'A background job failed.',
    } as Record<TFailedWork, string>,
    /** What Retry does, by the same work code. */
    retryDoes: {
      ticket_report:
        'Retry reads the ticket as it is now and reports its Threat if the ticket still asks for it, once; a refused Threat removed the submit tag, so correct the Threat and add the tag again instead. A report whose outcome is unknown is never sent twice.',
      ticket_comments:
        'Retry queues the ticket’s change again; comments already forwarded are not sent twice.',
      ticket_action:
        'Retry queues the ticket’s change again; comments already forwarded are not sent twice.',
      ticket_change:
        'Retry queues the ticket’s change again; comments already forwarded are not sent twice.',
      incident_update: 'Retry applies the incident’s current state to the ticket again.',
      ticket_write:
        'Zendesk refused this change for good (closed or deleted ticket): it cannot be retried.',
      account_setup: 'Retry runs setup again.',
      comment_forward:
        'Retry forwards this comment again with the next comment run; nothing else is resent.',
      background_job: 'Retry queues the job again.',
    } as Record<TFailedWork, string>,
    party: {
      incident_service: 'The incident service',
      zendesk: 'Zendesk',
      other_side: 'The other side',
    } as Record<TFailureParty, string>,
    /** What an HTTP status says, after the party: "Zendesk refused the data". */
    status: {
      400: 'refused the request as invalid',
      401: 'refused the credentials',
      403: 'did not allow it',
      404: 'did not find it',
      409: 'reported a conflict',
      413: 'found it too large',
      422: 'refused the data',
      429: 'asked to slow down (rate limit)',
      500: 'had an internal error',
      502: 'was unreachable behind a gateway',
      503: 'was temporarily unavailable',
      504: 'did not answer in time',
    } as Record<number, string>,
    serverError: 'had a server error',
    refused: 'refused the request',
    httpStatus: (party: string, words: string, status: number) =>
      `${party} ${words} (HTTP ${status}).`,
    timeout: (party: string) => `${party} did not answer in time.`,
    unreachable: (party: string) => `${party} could not be reached.`,
    stoppedWith: (reason: string) => `It stopped with: ${reason}`,
    noReason: 'It failed without a reason.',
    outcomeUnknown:
      'The worker stopped while posting it: the incident may or may not have the comment. Check the incident before retrying.',
    /** A cause this page does not know yet (a newer connector). */
    unknownProblem: 'It failed; the technical detail below says why.',
  },
  setupOutcome: {
    finished: 'Setup finished.',
    finishedWithFailures: (failedSteps: number) =>
      `Setup finished with ${failedSteps} failed step(s).`,
    ranTooLong:
      'Setup stopped: it ran past its time limit (Zendesk or the incident service answered too slowly); it is tried again',
    accountUnavailable: (reason: string) => `Setup stopped: the account cannot act: ${reason}`,
    /** Why the account cannot act, by the connector's reason code. */
    accountReason: {
      unknown_account: 'unknown account',
      reauthorization_required: 'reauthorization required',
      not_configured: 'not configured',
      disconnected: 'disconnected',
    } as Record<string, string>,
    stopped: (reason: string) => `Setup stopped: ${reason}`,
    disconnected: (reason: string) =>
      `incident-desk is disconnected from this Zendesk account (${reason}): install it again before setup can run.`,
    /** Why the account is disconnected, by the connector's reason code. */
    disconnectReason: {
      app_uninstalled: 'app uninstalled',
      authorization_lost: 'authorization lost',
      admin_disconnect: 'admin disconnect',
    } as Record<string, string>,
    reauthorizationRequired: 'Zendesk needs to be authorised again before setup can run.',
    needsConfiguration: 'Save the incident API key and client id, then run setup.',
    needsSetupScopes: (granted: string, needed: string) =>
      `The stored token has "${granted}"; setup needs "${needed}". Authorise setup with Zendesk from this page.`,
    webhookTest: (text: string) => ` Zendesk's webhook test: ${text}`,
    keptWider: (scope: string) => ` Zendesk kept scopes beyond the steady state (${scope}).`,
    notNarrowed: (scope: string, reason: string) =>
      ` The token could not be narrowed to "${scope}": ${reason}.`,
    /** An outcome this page does not know yet (a newer connector). */
    unknownOk: 'Setup finished.',
    unknownFailed: 'Setup did not finish; the lines below say what each step did.',
  },
  /** Why a ticket's report was not linked (the reconciliation entry's detail), by kind. */
  unlinkedWhy: {
    duplicateConflict: 'answered 409',
    duplicateNoId: 'answered without an incident id',
    lostAnswer: (failure: string) => `the report request failed midway (${failure})`,
    stoppedWhileSending: 'a previous attempt stopped while the report was being sent',
    ticketBeingOpened: (incidentId: string) =>
      `reported as incident ${incidentId}, but a ticket is being opened for that incident`,
    linkCollides: (incidentId: string, other: string) =>
      `reported as incident ${incidentId}, but the link collides with ${other}`,
    /** A kind this page does not know yet (a newer connector). */
    unknown: 'for a reason this page cannot name',
  },
  /** Zendesk's test of its webhook, when the delivery did not arrive, by outcome code. */
  zendeskWebhookTest: {
    trouble: {
      needs_permission:
        'Zendesk lets only a token with webhook permission test its webhook, and incident-desk keeps a narrower one after setup; setup tests it at its end.',
      no_webhook: 'The Zendesk webhook does not exist yet: run setup first.',
      failed: 'Zendesk did not run the webhook test; try again in a moment.',
    } as Record<WebhookTestTrouble, string>,
    refused: (status: number) =>
      `Zendesk sent the test, and the connector answered ${status || 'nothing'}: check that Zendesk can reach the connector's public address.`,
    /** An outcome this page does not know yet. */
    unknown: 'Zendesk’s webhook test did not arrive; try again in a moment.',
    clientRefused: 'the incident service did not accept the test request; run setup again',
  },
};
