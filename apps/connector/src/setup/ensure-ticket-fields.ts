// Ticket fields of the contract: setup's own are the ones whose ids it stored, and, to find them
// after a lost database, those of its titles carrying its mark in their description; a field is
// never taken for setup's by its title alone. Created only when missing. An admin's field that only
// looks like one (same title, no mark) is left as it is, and the step says so. Threat URL and
// Incident ID are text fields; Incident Status is a drop-down (status-field.ts): an older text
// Incident Status is migrated (a drop-down is created and configured in its place, the text field
// is left as it is), and a drop-down missing options gets them.
import type { TTicketField, ZendeskClient } from '@incident-desk/zendesk-api';
import type { SetupFieldIds, StepReport } from './setup-result';
import { planStatusOptions, STATUS_FIELD_OPTIONS } from './status-field';
import { stepErrorMessage } from './step-error';

/** In the description of every field setup makes (since its first version). */
const TICKET_FIELD_MARK = '(incident-desk)';

export const SETUP_TICKET_FIELDS = [
  {
    key: 'threat',
    title: 'Threat URL',
    description: `URL, domain, email, E.164 phone or IPv4 to report ${TICKET_FIELD_MARK}`,
  },
  {
    key: 'incidentId',
    title: 'Incident ID',
    description: `Incident id returned by the incident service ${TICKET_FIELD_MARK}`,
  },
  {
    key: 'status',
    title: 'Incident Status',
    description: `Latest incident status ${TICKET_FIELD_MARK}`,
  },
] as const satisfies readonly { key: keyof SetupFieldIds; title: string; description: string }[];

export interface EnsureTicketFieldsResult {
  fields: SetupFieldIds;
  steps: StepReport[];
}

const usable = (field: TTicketField) => field.active !== false;

/** Whether a field carries setup's mark (its stored id is the other proof). Never by title. */
function isMarkedTicketField(field: { description?: string | null | undefined }): boolean {
  return (field.description ?? '').includes(TICKET_FIELD_MARK);
}

const lookAlikeNote = (fields: TTicketField[]) =>
  fields.length > 0
    ? `left the account's own field(s) of that title as they are (${fields.map((field) => `field ${field.id}`).join(', ')})`
    : undefined;

function withNote(step: StepReport, note: string | undefined): StepReport {
  if (!note) return step;
  return { ...step, message: step.message ? `${step.message}; ${note}` : note };
}

function sameTitle(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

export async function ensureTicketFields(
  zendesk: ZendeskClient,
  stored: Partial<SetupFieldIds> = {},
): Promise<EnsureTicketFieldsResult> {
  const fields: SetupFieldIds = {
    threat: stored.threat ?? null,
    incidentId: stored.incidentId ?? null,
    status: stored.status ?? null,
  };
  let existing: TTicketField[];
  try {
    existing = [];
    for await (const field of zendesk.ticketFields.list()) existing.push(field);
  } catch (error) {
    const message = `could not list ticket fields: ${stepErrorMessage(error)}`;
    return {
      fields,
      steps: SETUP_TICKET_FIELDS.map(({ title }) => ({
        step: 'ticket_field',
        target: title,
        outcome: 'failed',
        message,
      })),
    };
  }

  const steps: StepReport[] = [];
  for (const wanted of SETUP_TICKET_FIELDS) {
    // A stored id wins so an admin may rename the field; a deleted or deactivated one is replaced.
    const byId = existing.find((field) => field.id === stored[wanted.key] && usable(field));
    const ofTitle = existing.filter(
      (field) => usable(field) && field !== byId && sameTitle(field.title, wanted.title),
    );
    const marked = ofTitle.filter(isMarkedTicketField);
    const leftAlone = lookAlikeNote(ofTitle.filter((field) => !isMarkedTicketField(field)));
    if (wanted.key === 'status') {
      // A drop-down is preferred to a text field (after a migration both exist).
      const found =
        (byId?.type === 'tagger' ? byId : undefined) ??
        marked.find((field) => field.type === 'tagger') ??
        byId ??
        marked[0];
      const result = await ensureStatusField(zendesk, found, wanted);
      if (result.id !== null) fields.status = result.id;
      steps.push(withNote(result.step, leftAlone));
      continue;
    }
    const found = byId ?? marked[0];
    if (found) {
      fields[wanted.key] = found.id;
      steps.push(
        withNote({ step: 'ticket_field', target: wanted.title, outcome: 'found' }, leftAlone),
      );
      continue;
    }
    try {
      const created = await zendesk.ticketFields.create({
        type: 'text',
        ...fieldBasics(wanted),
      });
      fields[wanted.key] = created.id;
      steps.push(
        withNote({ step: 'ticket_field', target: wanted.title, outcome: 'created' }, leftAlone),
      );
    } catch (error) {
      steps.push({
        step: 'ticket_field',
        target: wanted.title,
        outcome: 'failed',
        message: stepErrorMessage(error),
      });
    }
  }
  return { fields, steps };
}

function fieldBasics(wanted: { title: string; description: string }) {
  return {
    title: wanted.title,
    description: wanted.description,
    active: true,
    required: false,
    visible_in_portal: false,
    editable_in_portal: false,
  };
}

/**
 * The Incident Status drop-down: found (options completed when some are missing or renamed),
 * created, or created in place of a text field of an earlier version. The text field is not
 * changed: its values stay on the tickets that have them and the connector stops writing it; an
 * admin may deactivate it once no view or trigger uses it.
 */
async function ensureStatusField(
  zendesk: ZendeskClient,
  found: TTicketField | undefined,
  wanted: { title: string; description: string },
): Promise<{ id: number | null; step: StepReport }> {
  const target = wanted.title;
  if (found?.type === 'tagger') {
    const plan = planStatusOptions(found.custom_field_options);
    if (plan.options === null) {
      return { id: found.id, step: { step: 'ticket_field', target, outcome: 'found' } };
    }
    const changes = [
      ...(plan.added.length ? [`added options ${plan.added.join(', ')}`] : []),
      ...(plan.renamed.length ? [`renamed options ${plan.renamed.join(', ')}`] : []),
    ].join('; ');
    try {
      await zendesk.ticketFields.update(found.id, { custom_field_options: plan.options });
      return {
        id: found.id,
        step: { step: 'ticket_field', target, outcome: 'updated', message: changes },
      };
    } catch (error) {
      // The field stays configured: Zendesk refuses a status without an option until a rerun
      // adds it, and the writer then drops that value and still writes the note.
      return {
        id: found.id,
        step: {
          step: 'ticket_field',
          target,
          outcome: 'failed',
          message: `could not update the options (${changes}): ${stepErrorMessage(error)}`,
        },
      };
    }
  }
  try {
    const created = await zendesk.ticketFields.create({
      type: 'tagger',
      ...fieldBasics(wanted),
      custom_field_options: STATUS_FIELD_OPTIONS.map((option) => ({ ...option })),
    });
    return {
      id: created.id,
      step: {
        step: 'ticket_field',
        target,
        outcome: 'created',
        ...(found
          ? {
              message: `replaces the ${found.type} field ${found.id}, which is kept unchanged and no longer written`,
            }
          : {}),
      },
    };
  } catch (error) {
    // A text field of an earlier version stays configured rather than none at all.
    return {
      id: found?.id ?? null,
      step: {
        step: 'ticket_field',
        target,
        outcome: 'failed',
        message: stepErrorMessage(error),
      },
    };
  }
}
