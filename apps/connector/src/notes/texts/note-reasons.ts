// Why something the agent asked for did not happen, as data: a note renders it in the account's
// language (note-texts.ts), the database and the admin page keep the English rendering.

/**
 * Why Zendesk's client would not download an attachment (its `TAttachmentRefusal`, which must fit
 * here: sync's upload-evidence.ts passes one into a SkipReason, so a new refusal is a type error).
 */
export type AttachmentRefusal =
  'host_not_allowed' | 'not_https' | 'private_address' | 'too_many_redirects' | 'bad_redirect';

/** Why a ticket attachment was not sent to the incident as evidence. */
export type SkipReason =
  | { kind: 'unsupported_type'; type: string | null }
  /** `size` undefined when only the download's stream showed it. */
  | { kind: 'too_large'; size: number | undefined; maxBytes: number; requestMaxBytes: number }
  | { kind: 'download_refused'; refusal: AttachmentRefusal }
  | { kind: 'download_gone' }
  | { kind: 'download_answered'; status: number }
  | { kind: 'download_timed_out' }
  | { kind: 'download_unreachable' }
  | { kind: 'download_bad_address' }
  | { kind: 'download_failed' }
  | { kind: 'upload_unavailable'; status: number | null }
  | { kind: 'upload_unknown'; status: number | null }
  | { kind: 'upload_refused'; status: number | null };

/** Why the Threat field's value was not reported. */
export type ThreatProblem =
  | { kind: 'empty' }
  | { kind: 'digits_only' }
  /** `issues`: the validation's own words (English), shown as they are. */
  | { kind: 'not_reportable'; issues: string };

/** Why a report did not end with a link (a duplicate, a lost answer, a link conflict). */
export type UnlinkedReason =
  | { kind: 'duplicate'; status: number }
  | { kind: 'lost_answer'; failure: string }
  | { kind: 'stopped_while_sending' }
  | { kind: 'ticket_being_opened'; incidentId: string }
  | { kind: 'link_collides'; incidentId: string; other: string };

/** Why a comment was not forwarded to the incident. */
export type ForwardFailure =
  { kind: 'outcome_unknown'; failure: string } | { kind: 'not_forwarded'; failure: string };
