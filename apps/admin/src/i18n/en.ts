// The admin page's English texts: the default, and the shape every other language follows (a
// text missing from one fails the type check).
import type { DisconnectStep, TDisconnectItem } from '@incident-desk/admin-contract';
import type { Settings } from '../api';
import { analyticsMessages } from './en-analytics';
import { errorMessages } from './en-errors';
import { failureMessages } from './en-failures';

type SettingToggle = keyof Omit<Settings, 'newTicketGroupId'>;

export const en = {
  app: {
    title: 'incident-desk admin',
    loadFailed: 'The admin page could not load',
    signedInAs: (userName: string, subdomain: string) =>
      `Signed in as ${userName}, admin of ${subdomain}`,
    signOut: 'Sign out',
  },
  signIn: {
    intro: 'Sign in as a Zendesk admin of the account incident-desk is installed on.',
    label: 'Zendesk subdomain',
    hint: 'e.g. acme, or paste your Zendesk address such as https://acme.zendesk.com',
    notASubdomain:
      'That is not a Zendesk subdomain. Enter the part before .zendesk.com, e.g. acme for acme.zendesk.com.',
    empty: 'Enter your Zendesk subdomain.',
    submit: 'Sign in with Zendesk',
  },
  common: {
    never: 'never',
    done: 'done',
    authoriseWithZendesk: 'Authorise with Zendesk',
    runSetup: 'Run setup',
  },
  firstRun: {
    title: 'Get started',
    progress: (done: number, total: number) => `${done} of ${total} steps done.`,
    state: { done: 'Done', todo: 'To do', waiting: 'Waiting' },
    next: (next: string) => `Next: ${next}`,
    setupNeedsAuthorization:
      'Setup needs a wider Zendesk permission: use "Authorise with Zendesk" in the setup section.',
    setupQueued: 'Setup queued: this checklist updates when it is done.',
    sendTest: 'Send a test delivery',
    testRequested: 'Test requested: the step is done once the delivery arrives.',
  },
  incidentConnection: {
    enterKey: 'Enter the API key.',
    enterClientId: 'Enter the client id the key belongs to.',
    saved: (clientName: string, clientId: string, setupStarting: boolean) =>
      `Saved: the key works for ${clientName} (${clientId}).${setupStarting ? ' Setup is starting.' : ''}`,
    apiKey: 'Incident API key',
    keySet: (clientName: string | null) =>
      `Set${clientName ? ` for ${clientName}` : ''}. Leave empty to keep it; it is never shown again.`,
    keyNotSet: 'Not set. The key is checked with the incident service before it is saved.',
    clientId: 'Client id',
    subClients: 'Sub-clients',
    subClientsHint: 'Client ids, separated by commas.',
    checking: 'Checking the key…',
    save: 'Save incident service',
  },
  connection: {
    title: 'Zendesk connection',
    account: 'Account',
    accountAt: (subdomain: string, url: string) => `${subdomain} at ${url}`,
    state: 'State',
    stateLabel: {
      active: 'Token valid',
      reauthorization_required: 'Re-authorisation needed',
      not_connected: 'Not connected',
    },
    tokenRefused: 'Token refused by Zendesk',
    authoriseAgain: 'Authorise again',
    authoriseLink: 'Authorise incident-desk with Zendesk',
    grantedScopes: 'Granted scopes',
    none: 'none',
    missingScopes: 'Missing scopes',
    missingScope: (scopes: string) => `missing scope: ${scopes}`,
    accessExpires: 'Access token expires',
    refreshExpires: 'Refresh token expires',
    noRefreshToken: 'no refresh token',
    lastProblem: 'Last problem',
    webhooks: 'Webhooks',
    lastFromZendesk: 'Last from Zendesk',
    lastFromIncident: 'Last from the incident service',
    lastWebhookTest: 'Last webhook.test',
    client: (clientId: string) => `Client ${clientId}`,
    lastRealEvent: 'last real event',
    noRealEvent: 'no real event yet',
    lastClientTest: '; last webhook.test ',
  },
  setup: {
    title: 'Setup',
    state: 'State',
    label: {
      never_run: 'Not run yet',
      queued: 'Queued',
      running: 'Running',
      succeeded: 'Done',
      failed: 'Failed',
      needs_configuration: 'Waiting for the incident API key',
      needs_authorization: 'Needs Zendesk authorisation',
    } as Record<string, string>,
    requested: 'Requested',
    finished: 'Finished',
    outcome: 'Outcome',
    scopesAfter: 'Token scopes afterwards',
    runAgain: 'Run setup again',
    queued: 'setup queued',
    authorise: (subdomain: string) => `Authorise setup for ${subdomain} with Zendesk`,
    stepLine: (step: string, target: string, outcome: string) => `${step} ${target}: ${outcome}`,
    /** What a line of the setup report is about, by the connector's step code. */
    step: {
      ticket_field: 'Ticket field',
      zendesk_webhook: 'Zendesk webhook',
      trigger: 'Trigger',
      view: 'View',
      incident_subscription: 'Incident service subscription',
      incident_test_delivery: 'Test delivery',
    } as Record<string, string>,
    stepOutcome: {
      created: 'created',
      found: 'found',
      updated: 'updated',
      removed: 'removed',
      requested: 'requested',
      failed: 'failed',
      skipped: 'skipped',
    } as Record<string, string>,
  },
  ticketWrites: {
    row: 'Ticket updates',
    authoriseAgainRow: 'Authorise again',
    label: {
      failing: 'Failing',
      rateLimited: 'Rate limited',
      recovering: 'Recovering',
      late: 'Late',
      ok: 'Up to date',
    },
    why: {
      zendesk_5xx: (status: number | null) => `Zendesk answers ${status ?? 'with a server error'}`,
      zendesk_timeout: 'Zendesk does not answer in time',
      zendesk_connection: 'Zendesk cannot be reached',
      zendesk_rate_limited: 'Zendesk answers 429, too many requests for this account',
      reauthorization_required: 're-authorisation needed',
      zendesk_forbidden: (detail: string | null) =>
        `Zendesk refuses access (403${detail ? `, ${detail}` : ''}): authorise incident-desk again with the scopes it asks for`,
      zendesk_error: (status: number | null) =>
        status ? `Zendesk answers ${status}` : 'Zendesk’s answer could not be read',
      not_configured: 'the incident connection is not configured',
    },
    noChangeWaiting: 'no change waiting',
    backlog: (waiting: number, age: string) =>
      `${waiting === 1 ? '1 change' : `${waiting} changes`} waiting, oldest ${age}`,
    failingSentence: (rateLimited: boolean, since: string, why: string, backlog: string) =>
      `Ticket updates are ${rateLimited ? 'rate limited' : 'failing'} since ${since}: ${why} (${backlog}).`,
    recoveringSentence: (failedAt: string | null, backlog: string) =>
      `Zendesk takes ticket updates again${failedAt ? ` after the failure at ${failedAt}` : ''}; the changes it held back are being written (${backlog}).`,
    lateSentence: (backlog: string, after: string) =>
      `Ticket updates are late: ${backlog}, longer than ${after}, though Zendesk reports no error.`,
    okSentence: (backlog: string | null) =>
      backlog ? `Ticket updates reach Zendesk (${backlog}).` : 'Ticket updates reach Zendesk.',
    stopped: 'Stopped',
    stoppedSentence:
      'Ticket updates cannot reach Zendesk until you reconnect incident-desk: Zendesk no longer accepts its authorisation. Changes wait and are written once you do.',
    waiting: 'Waiting updates',
    retryNow: 'Retry now',
    pausedUntil: (time: string) => `Zendesk asked to wait until ${time}: the updates go then.`,
    nothingPutOff: 'Nothing was put off: the waiting updates are already being written.',
    woken: (count: number) =>
      `${count === 1 ? '1 update goes' : `${count} updates go`} to Zendesk now.`,
  },
  deadLetters: {
    title: 'Failed syncs',
    commentForward: 'Comment forward',
    commentForwardOf: (ticketId: number) => `Comment forward of ticket #${ticketId}`,
    sync: 'Sync',
    ticket: (ticketId: number) => `Ticket #${ticketId}`,
    backgroundJob: 'Background job',
    incident: (reference: string) => `Incident ${reference}`,
    technicalDetail: 'Technical detail',
    retry: 'Retry',
    queuedAgain: 'Queued again.',
    retried: 'Retried',
    notDoneYet: 'Not done yet',
    queuedAgainTag: 'Queued again',
    retriedAt: 'retried',
    stillListed: 'It is still listed below; reload in a moment to see whether it went through.',
    inBackground: 'The worker runs it in the background; if it fails again it comes back here.',
    none: 'No failed syncs.',
  },
  ...analyticsMessages,
  ...failureMessages,
  ...errorMessages,
  settings: {
    title: 'Settings',
    toggles: {
      forwardInternalNotes: [
        'Forward internal notes',
        'Internal notes go to the incident too, not only public replies.',
      ],
      solveOnTakedownSuccess: [
        'Solve on takedown success',
        'Solve the ticket when its incident reaches takedown_success.',
      ],
      openTicketsForDetectedIncidents: [
        'Open tickets for detected incidents',
        'An incident detected elsewhere opens a ticket.',
      ],
      createZendeskViews: [
        'Queue views in Zendesk',
        'Setup creates two shared views, “Takedowns waiting for approval” and “Incidents needing your action”; turned off, the next setup run removes them.',
      ],
    } as Record<SettingToggle, readonly [label: string, hint: string]>,
    groupIdIsNumber: 'A group id is a number, e.g. 360001234567; leave it empty for the default.',
    saved: 'Settings saved.',
    save: 'Save settings',
    incidentService: 'Incident service',
  },
  groupField: {
    label: 'Group for new tickets',
    hint: 'Tickets opened for detected incidents go to this Zendesk group.',
    defaultGroup: "The account's default group",
    gone: (id: string) => `Group ${id} (no longer in Zendesk)`,
    reading: 'Reading the groups from Zendesk…',
    emptyForDefault: (why: string) => `${why} Empty for the account's default.`,
    reconnect:
      'Reconnect Zendesk to choose a group: Zendesk no longer accepts incident-desk’s authorisation.',
    notReadable: 'Zendesk does not let incident-desk read the groups; enter the group id instead.',
    notListed: 'Zendesk could not list the groups just now; enter the group id instead.',
  },
  reconciliation: {
    title: 'Reconciliation queue (unlinked tickets)',
    ticket: (ticketId: number) => `Ticket #${ticketId}`,
    notLinked: (reason: string) => `Its report could not be linked to an incident (${reason}).`,
    reasonWithDetail: (reason: string, detail: string) => `${reason}: ${detail}`,
    reason: {
      duplicate: 'duplicate',
      'report outcome unknown': 'report outcome unknown',
      'link conflict': 'link conflict',
    } as Record<string, string>,
    explain:
      "Link ties it to the incident you name (checked with the incident service first). Retry reports the ticket again, exactly as the sidebar's retry does.",
    incidentId: 'Incident id',
    link: 'Link',
    retry: 'Retry',
    linked: (incidentId: string) => `linked to incident ${incidentId}`,
    linkedStatus: 'linked',
    retried:
      'report queued: the worker reports it again; it comes back here if it cannot be linked',
    retriedStatus: 'report queued',
    handled: 'Handled',
    backInQueue: '; it is back in the queue below.',
    none: 'No ticket waits to be linked.',
  },
  disconnect: {
    title: 'Disconnect',
    intro: (subdomain: string) =>
      `Stop incident-desk for ${subdomain} and remove what it created in Zendesk.`,
    open: 'Disconnect…',
    heading: (subdomain: string) => `Disconnect incident-desk from ${subdomain}?`,
    removes: 'This removes, and cannot be undone:',
    removed: [
      'the views “Takedowns waiting for approval” and “Incidents needing your action”, the incident-desk triggers and the webhook they notify, in Zendesk;',
      'the incident service’s webhook subscriptions for your clients;',
      'incident-desk’s Zendesk authorisation (revoked) and the incident API key;',
      'what incident-desk keeps about this account: the links between tickets and incidents and their history. The incidents themselves stay in the incident service, and the notes stay on the tickets.',
    ],
    fieldsKept:
      'The ticket fields Threat URL, Incident ID and Incident Status are deleted only when no ticket holds a value in them.',
    deleteFields: 'Delete the ticket fields even when tickets use them',
    deleteFieldsHint: 'Their values are lost on every ticket.',
    authorizeFirst:
      'Zendesk must allow the removal first: you go to Zendesk to authorise it, then come back here to confirm.',
    cancel: 'Cancel',
    confirm: 'Disconnect',
    disconnecting: 'Disconnecting…',
    close: 'Close',
  },
  disconnected: {
    title: (subdomain: string) => `incident-desk is disconnected from ${subdomain}`,
    someFailed: 'Some things could not be removed',
    removeByHand: (count: number) =>
      `Remove the ${count} marked below by hand in Zendesk Admin Center or the incident service.`,
    signedOut: 'You are signed out.',
    installAgain: 'Install incident-desk again',
    item: {
      view: 'View',
      trigger: 'Trigger',
      zendesk_webhook: 'Zendesk webhook',
      ticket_field: 'Ticket field',
      incident_subscription: 'Incident service subscription of client',
      oauth_token: 'Zendesk authorisation',
      account_data: 'Stored data',
    } as Record<TDisconnectItem, string>,
    outcome: {
      removed: 'removed',
      already_gone: 'already gone',
      kept: 'kept',
      failed: 'not removed: remove it by hand',
      skipped: 'not removed',
    } as Record<DisconnectStep['outcome'], string>,
  },
  disconnection: {
    app_uninstalled: {
      title: 'The incident-desk app was uninstalled from Zendesk',
      sentence:
        'incident-desk has stopped working for this account: no ticket is updated and no incident event applied. Install the app in Zendesk and authorise incident-desk again to resume, or disconnect to remove what setup created in Zendesk.',
    },
    authorization_lost: {
      title: 'Zendesk no longer accepts incident-desk’s authorisation',
      sentence:
        'incident-desk has stopped working for this account. Authorise it with Zendesk again to resume, or disconnect.',
    },
    admin_disconnect: {
      title: 'A disconnect did not finish',
      sentence: 'incident-desk has stopped working for this account. Disconnect again to finish.',
    },
    since: 'since',
    authoriseAgain: 'Authorise incident-desk with Zendesk again',
  },
};

export type Messages = typeof en;
