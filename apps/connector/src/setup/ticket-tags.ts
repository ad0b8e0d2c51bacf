// Tags the triggers and the connector agree on (see the contract's Triggers table).
export const TAG_SUBMIT = 'incident_submit';
/** The monitoring variant of the submit tag (see setup/trigger-definitions.ts). */
const TAG_SUBMIT_MONITOR = 'incident_submit_monitor';
/** Removed once a report is handled, whichever trigger sent it. */
export const SUBMIT_TAGS = [TAG_SUBMIT, TAG_SUBMIT_MONITOR];
export const TAG_LINKED = 'incident_linked';
export const TAG_UNLINKED = 'incident_unlinked';

export const ACTION_REQUEST_TAGS = {
  tkd: 'incident_request_takedown',
  monitor: 'incident_request_monitor',
  safe: 'incident_mark_safe',
} as const;

/** The tags of a ticket opened for an incident detected elsewhere (a follow-up keeps them). */
export const DETECTED_TICKET_TAGS = [TAG_LINKED, 'incident_detected'];
