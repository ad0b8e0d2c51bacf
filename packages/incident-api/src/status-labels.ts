// The incident statuses as people read them, as the sidebar names them (its translations,
// status.<value>.label and .meaning), so a note and the sidebar speak alike. A test keeps the two
// in step.
export const STATUS_LABELS: Record<string, { label: string; meaning: string }> = {
  pending_review: { label: 'Pending review', meaning: 'Reported, not yet reviewed by an analyst.' },
  case_building: {
    label: 'Case building',
    meaning: 'An analyst is reviewing, choosing a plan and gathering evidence.',
  },
  approval_required: {
    label: 'Approval required',
    meaning: 'The takedown is waiting for your approval.',
  },
  takedown_ready: {
    label: 'Takedown ready',
    meaning: 'The takedown is approved and about to start.',
  },
  pre_weaponised: {
    label: 'Monitoring',
    meaning: 'Placed into monitoring: not yet harmful, watched for changes.',
  },
  takedown_in_progress: {
    label: 'Takedown in progress',
    meaning: 'The takedown has started and is not complete yet.',
  },
  takedown_success: { label: 'Taken down', meaning: 'The takedown completed successfully.' },
  takedown_attempt_failed: {
    label: 'Takedown failed',
    meaning: 'A takedown was attempted and did not succeed.',
  },
  blocklisted: {
    label: 'Blocklisted',
    meaning: 'Blocklisted by partners; no takedown was performed.',
  },
  action_required: {
    label: 'Action required',
    meaning: 'The service is waiting for an action from your organisation.',
  },
  closed: { label: 'Closed', meaning: 'Resolved or closed.' },
};

/** The sidebar's label, or the raw value (plain text) for a status this version does not know. */
export function statusLabel(status: string): string {
  return Object.hasOwn(STATUS_LABELS, status) ? STATUS_LABELS[status]!.label : status;
}

export function statusMeaning(status: string): string | undefined {
  return Object.hasOwn(STATUS_LABELS, status) ? STATUS_LABELS[status]!.meaning : undefined;
}
