// The Incident Status ticket field is a drop-down (Zendesk `tagger`): one option per status of the
// incident service, named as the sidebar names it, so Zendesk views read "Approval required". A
// drop-down value becomes a ticket tag, so the values are namespaced (`incident_status_<status>`).
import { INCIDENT_STATUSES } from '@incident-desk/incident-api/statuses';
import { statusLabel } from '@incident-desk/incident-api';

const STATUS_OPTION_PREFIX = 'incident_status_';

const KNOWN: ReadonlySet<string> = new Set(INCIDENT_STATUSES);

/**
 * The drop-down value of a status, or undefined for a status this version does not know (read
 * tolerantly from the service): the field has no option for it, and Zendesk refuses a value that is
 * not one of its options, so the writer leaves the field as it is and still writes the note.
 */
export function statusOptionValue(status: string): string | undefined {
  return KNOWN.has(status) ? `${STATUS_OPTION_PREFIX}${status}` : undefined;
}

/** The status a drop-down value stands for, or undefined for a value that is not one of ours. */
export function statusFromOptionValue(value: unknown): string | undefined {
  if (typeof value !== 'string' || !value.startsWith(STATUS_OPTION_PREFIX)) return undefined;
  const status = value.slice(STATUS_OPTION_PREFIX.length);
  return KNOWN.has(status) ? status : undefined;
}

/** Every option the field must have, in the service's order. */
export const STATUS_FIELD_OPTIONS: readonly { name: string; value: string }[] =
  INCIDENT_STATUSES.map((status) => ({
    name: statusLabel(status),
    value: `${STATUS_OPTION_PREFIX}${status}`,
  }));

export interface StatusOptionsPlan {
  /** The full option list to PUT (the options given replace the field's), or null when in step. */
  options: { name: string; value: string }[] | null;
  added: string[];
  renamed: string[];
}

/**
 * What an existing drop-down needs: missing options appended, ours renamed to the sidebar's label;
 * options an admin added are kept as they are (a PUT replaces the whole list, so they are resent).
 */
export function planStatusOptions(
  existing: readonly { name: string; value: string }[] | null | undefined,
): StatusOptionsPlan {
  const current = (existing ?? []).map((option) => ({ name: option.name, value: option.value }));
  const added: string[] = [];
  const renamed: string[] = [];
  for (const wanted of STATUS_FIELD_OPTIONS) {
    const found = current.find((option) => option.value === wanted.value);
    if (!found) {
      current.push({ ...wanted });
      added.push(wanted.value);
    } else if (found.name !== wanted.name) {
      found.name = wanted.name;
      renamed.push(wanted.value);
    }
  }
  return { options: added.length || renamed.length ? current : null, added, renamed };
}
