import { STATUS_LABELS } from '@incident-desk/incident-api';
import type { NoteTexts, ReportMode } from './note-texts';
import type { SkipReason, ThreatProblem, UnlinkedReason } from './note-reasons';

const MODE: Record<ReportMode, string> = { takedown: 'takedown', monitor: 'monitoring' };

const ACTION = {
  tkd: { request: 'Takedown request', done: 'Takedown requested.' },
  monitor: { request: 'Monitoring request', done: 'Monitoring requested.' },
  safe: { request: 'Mark-safe request', done: 'Marked safe.' },
} as const;

const OUTCOME: Record<string, string> = {
  success: 'taken down',
  failed: 'failed',
  not_actionable: 'not actionable',
  closed: 'closed without result',
};

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many);

function bytes(count: number): string {
  return `${count.toLocaleString('en-US')} ${plural(count, 'byte', 'bytes')}`;
}

function answered(status: number | null): string {
  return status === null ? '' : ` (answered ${status})`;
}

function skip(reason: SkipReason): string {
  switch (reason.kind) {
    case 'unsupported_type':
      return `${reason.type ?? 'unknown type'} is not a supported evidence type`;
    case 'too_large':
      return (
        `too large: ${reason.size === undefined ? 'more than' : `${bytes(reason.size)}, over`} the ` +
        `${bytes(reason.maxBytes)} one upload holds (the incident service takes ` +
        `${bytes(reason.requestMaxBytes)} per request, the file's name and type included)`
      );
    case 'download_refused':
      return EN.evidence.refusal[reason.refusal];
    case 'download_gone':
      return 'Zendesk no longer has the file';
    case 'download_answered':
      return `Zendesk answered ${reason.status} to its download`;
    case 'download_timed_out':
      return 'its download timed out';
    case 'download_unreachable':
      return 'its download could not connect';
    case 'download_bad_address':
      return 'its download address is not a web address';
    case 'download_failed':
      return 'its download failed';
    case 'upload_unavailable':
      return `the incident service was unavailable${answered(reason.status)}; it was not uploaded`;
    case 'upload_unknown':
      return `the upload's outcome is unknown${reason.status === null ? ' (no answer)' : answered(reason.status)}; it is not sent again to avoid a duplicate`;
    case 'upload_refused':
      return `the incident service refused it${answered(reason.status)}`;
  }
}

/** A threat problem in English (also the job's outcome and logs). */
export function problem(reason: ThreatProblem): string {
  switch (reason.kind) {
    case 'empty':
      return 'the Threat field is empty';
    case 'digits_only':
      return 'the Threat field holds only digits: a phone number needs the international form with + and country code, an IPv4 address four numbers';
    case 'not_reportable':
      return `the Threat field value is not reportable (${reason.issues})`;
  }
}

function unlinked(reason: UnlinkedReason): string {
  switch (reason.kind) {
    case 'duplicate':
      return reason.status === 409 ? 'answered 409' : 'answered without an incident id';
    case 'lost_answer':
      return `the report request failed midway (${reason.failure})`;
    case 'stopped_while_sending':
      return 'a previous attempt stopped while the report was being sent';
    case 'ticket_being_opened':
      return `reported as incident ${reason.incidentId}, but a ticket is being opened for that incident`;
    case 'link_collides':
      return `reported as incident ${reason.incidentId}, but the link collides with ${reason.other}`;
  }
}

export const EN: NoteTexts = {
  status: {
    labels: Object.fromEntries(Object.entries(STATUS_LABELS).map(([k, v]) => [k, v.label])),
    meanings: Object.fromEntries(Object.entries(STATUS_LABELS).map(([k, v]) => [k, v.meaning])),
  },

  change: {
    titleOne: 'Incident update',
    titleMany: (count) => `Incident updates (${count})`,
    status: (label) => `Status: ${label}`,
    statusNotGiven: 'Status changed (the new status was not given).',
    analyst: (message) => `Analyst: ${message}`,
    superseded: (current) =>
      `This change is older than one already shown; the Status field stays ${current ?? 'as it is'}.`,
    nextStepApproval:
      'Next step: approve the takedown with "Approve takedown" in the incident-desk sidebar, or reply if it should not go ahead.',
    nextStepAction:
      'Next step: do what the analyst asks, then answer with a public reply on this ticket (it reaches the analyst).',
    historyUpdated: 'The incident was updated.',
    actionRequired: 'Action required: the analyst is waiting for your organisation.',
    request: (reason) => `Request: ${reason}`,
    noReason: 'No reason was given.',
    newerShown: 'A newer update was already shown, so the ticket status was left as it is.',
    dashboard: (url) => `Dashboard: ${url}`,
  },

  takedown: {
    listed: (names) =>
      `Listed on ${names.length} ${plural(names.length, 'blocklist', 'blocklists')}: ${names.join(', ')}.`,
    submitted: (names) =>
      `Submitted to ${names.length} ${plural(names.length, 'blocklist', 'blocklists')}, protection in progress: ${names.join(', ')}.`,
    attemptsSent: (from, to, registrar) =>
      `${from === to ? `Takedown attempt ${to}` : `Takedown attempts ${from} to ${to}`} sent to the registrar${registrar ? ` (${registrar})` : ''}.`,
    attemptEnded: (number, outcome) =>
      `Takedown attempt ${number}: ${OUTCOME[outcome] ?? outcome}.`,
    snapshots: (count) => (count === 1 ? 'New snapshot.' : `${count} new snapshots.`),
  },

  detected: {
    intro:
      'The incident service detected an incident that no ticket was tracking; this ticket follows it.',
    introWithoutDetail:
      'The incident service reported an incident that no ticket was tracking; this ticket follows it.',
    detailUnreadable: 'Its details could not be read; open the incident in the dashboard.',
    line: (label, value) => `${label}: ${value}`,
    labels: {
      threat: 'Threat',
      domain: 'Domain',
      type: 'Type',
      status: 'Status',
      taxonomy: 'Taxonomy',
      registrar: 'Registrar',
      hostingProvider: 'Hosting provider',
      blocklists: 'Blocklist listings',
      whois: '- WHOIS',
      certificate: '- Certificate',
      hosting: '- Hosting',
      dnsRecords: '- DNS records',
      pageTitle: '- Page title',
      finalUrl: '- Final URL',
    },
    notAvailable: 'not available',
    incidentClass: (value) => ` (class ${value})`,
    difficulty: (value) => ` (takedown difficulty ${value})`,
    noneSubmitted: 'none submitted',
    submittedInProgress: 'submitted (protection in progress)',
    unknown: 'unknown',
    unknownPartner: 'unknown partner',
    unknownType: 'unknown type',
    since: (date) => ` since ${date}`,
    insights: (time) => `Insights (snapshot ${time ?? 'time unknown'}):`,
    noInsights: 'Insights: none captured yet',
    registrarUnknown: 'registrar unknown',
    daysOld: (days) => `${days} days old`,
    ageUndetermined: 'age undetermined',
    newlyRegistered: ', newly registered',
    valid: 'valid',
    invalid: 'invalid',
    validityUndetermined: 'validity undetermined',
    issuerUnknown: 'issuer unknown',
    providersUnknown: 'providers unknown',
    behindCdn: (name) => `, behind CDN ${name}`.trimEnd(),
    noCategory: '- no category captured',
    genericThreat: 'unknown threat',
  },

  report: {
    invalidThreat: (reason, shown, submitTag) =>
      `Not reported to the incident service: ${problem(reason)}${shown ? ` (${shown})` : ''}. ` +
      `Enter a URL, domain, email address, E.164 phone number (such as +14155550123) or IPv4 address ` +
      `in the Threat field and add the ${submitTag} tag again.`,
    unavailable: (mode, failure, submitTag) =>
      `The incident service was unavailable for the report for ${MODE[mode]} (${failure}). Nothing was reported; add the ${submitTag} tag again to retry.`,
    refused: (mode, failure, submitTag) =>
      `The incident service refused the report for ${MODE[mode]} (${failure}). Nothing was reported; fix what it names and add the ${submitTag} tag again.`,
    reported: (mode, threat, incidentField) =>
      `Reported to the incident service for ${MODE[mode]}${threat ? `: ${threat}` : ''}. Incident ID: ${incidentField}.`,
    duplicate: (reason) =>
      `The incident service already has an incident for this threat (${reason}). The ticket was not linked and is not reported again; it waits in the reconciliation queue for an administrator to link it.`,
    notLinked: (mode, reason) =>
      `The report for ${MODE[mode]} could not be linked: ${reason}. The ticket was not linked and is not reported again; it waits in the reconciliation queue for an administrator to link it.`,
    unlinked,
  },

  actions: {
    notLinked: (action) =>
      `${ACTION[action].request} not sent: this ticket is not linked to an incident.`,
    outcomeUnknown: (action, why, tag) =>
      `${ACTION[action].request}: ${why}, so it may or may not have reached the service. Check the incident; add the ${tag} tag again to send it again.`,
    stoppedWhileSending: 'the connector stopped while sending it, or lost its answer',
    answerLost: (failure) => `the answer was lost (${failure})`,
    failed: (action, failure, tag) =>
      `${ACTION[action].request} failed: ${failure}. Add the ${tag} tag again to retry.`,
    done: (action) => ACTION[action].done,
    serviceRefused: 'the service refused it',
  },

  link: {
    linkedByAdmin: (incidentId, person) =>
      `Linked to incident ${incidentId} by ${person} from the admin page.`,
    retried: (person) =>
      `Linking will be retried: the threat is reported again (requested by ${person}).`,
    linkedToExisting: (incidentId, person) =>
      `Linked to incident ${incidentId} by ${person} instead of a new report (the incident service already had it).`,
  },

  evidence: {
    notSent: 'Not sent to the incident as evidence:',
    notSentAtReport:
      'Not sent to the incident as evidence (files on the ticket when it was reported):',
    notForwarded: 'Not forwarded to the incident:',
    file: (name, reason) => `${name}: ${reason}`,
    noName: '(no name)',
    skip,
    refusal: {
      host_not_allowed:
        "its download address is neither this account's Zendesk nor one of Zendesk's attachment hosts, so it was not fetched",
      not_https: 'its download address does not use HTTPS, so it was not fetched',
      private_address:
        'its download address leads to a private or local network address, so it was not fetched',
      too_many_redirects: 'its download was redirected too many times',
      bad_redirect: 'its download was redirected to an address that is not a web address',
    },
    forwardFailure: (failure) =>
      failure.kind === 'outcome_unknown'
        ? `outcome unknown (${failure.failure}); not resent to avoid a duplicate`
        : `not forwarded (${failure.failure})`,
    comment: (commentId, why) => `comment ${commentId}: ${why}`,
  },
};
