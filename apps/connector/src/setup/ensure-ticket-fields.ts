// Ticket fields of the contract: found by stored id, else by title, created only when missing.
import type { TTicketField, ZendeskClient } from '@incident-desk/zendesk-api';
import type { SetupFieldIds, StepReport } from './setup-result';
import { stepErrorMessage } from './step-error';

export const SETUP_TICKET_FIELDS = [
  {
    key: 'threat',
    title: 'Threat URL',
    description: 'URL, domain, email, E.164 phone or IPv4 to report (incident-desk)',
  },
  {
    key: 'incidentId',
    title: 'Incident ID',
    description: 'Incident id returned by the incident service (incident-desk)',
  },
  {
    key: 'status',
    title: 'Incident Status',
    description: 'Latest incident status (incident-desk)',
  },
] as const satisfies readonly { key: keyof SetupFieldIds; title: string; description: string }[];

export interface EnsureTicketFieldsResult {
  fields: SetupFieldIds;
  steps: StepReport[];
}

const usable = (field: TTicketField) => field.active !== false;

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
    const found =
      byId ?? existing.find((field) => usable(field) && sameTitle(field.title, wanted.title));
    if (found) {
      fields[wanted.key] = found.id;
      steps.push({ step: 'ticket_field', target: wanted.title, outcome: 'found' });
      continue;
    }
    try {
      const created = await zendesk.ticketFields.create({
        type: 'text',
        title: wanted.title,
        description: wanted.description,
        active: true,
        required: false,
        visible_in_portal: false,
        editable_in_portal: false,
      });
      fields[wanted.key] = created.id;
      steps.push({ step: 'ticket_field', target: wanted.title, outcome: 'created' });
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
