// The Incident Status drop-down's vocabulary and the writer's mapping of a status to its option.
import { describe, expect, it } from 'vitest';
import { INCIDENT_STATUSES } from '@incident-desk/incident-api/statuses';
import { DEMO_STATUS_FIELD_OPTIONS } from '@incident-desk/zendesk-sandbox';
import type { AccountContext } from '../src/accounts/account-context';
import { STATUS_LABELS } from '@incident-desk/incident-api';
import {
  planStatusOptions,
  STATUS_FIELD_OPTIONS,
  statusFromOptionValue,
  statusOptionValue,
} from '../src/setup/status-field';
import { coalesce, type WaitingChange } from '../src/sync/ticket-writes/coalesce';

const ctx = (status: number | null) =>
  ({ fields: { threat: 1, incidentId: 2, status }, noteLocale: 'en' }) as unknown as AccountContext;

const change = (statusValue: string | null, iso: string): WaitingChange => ({
  id: iso,
  incidentId: 'inc_1',
  eventRef: `evt_${iso}`,
  eventAt: new Date(iso),
  createdAt: new Date(iso),
  entry: null,
  statusValue,
  ticketStatus: null,
  addTags: [],
});

describe('Incident Status drop-down options', () => {
  it('has one namespaced option per status, named with the sidebar label', () => {
    expect(STATUS_FIELD_OPTIONS.map((o) => o.value)).toEqual(
      INCIDENT_STATUSES.map((s) => `incident_status_${s}`),
    );
    for (const status of INCIDENT_STATUSES) {
      expect(STATUS_FIELD_OPTIONS).toContainEqual({
        name: STATUS_LABELS[status]!.label,
        value: `incident_status_${status}`,
      });
    }
  });

  it('is what the Zendesk sandbox demo seed creates, so setup finds the seeded field', () => {
    expect(DEMO_STATUS_FIELD_OPTIONS).toEqual(STATUS_FIELD_OPTIONS);
  });

  it('maps a known status to its option and back, and nothing else', () => {
    expect(statusOptionValue('approval_required')).toBe('incident_status_approval_required');
    expect(statusOptionValue('legal_hold_review')).toBeUndefined();
    expect(statusOptionValue('')).toBeUndefined();
    expect(statusFromOptionValue('incident_status_closed')).toBe('closed');
    expect(statusFromOptionValue('closed')).toBeUndefined();
    expect(statusFromOptionValue('incident_status_legal_hold_review')).toBeUndefined();
    expect(statusFromOptionValue(null)).toBeUndefined();
  });

  it('plans nothing for a complete drop-down, and adds and renames what differs', () => {
    expect(planStatusOptions(STATUS_FIELD_OPTIONS)).toEqual({
      options: null,
      added: [],
      renamed: [],
    });
    const plan = planStatusOptions([
      { name: 'Old name', value: 'incident_status_closed' },
      { name: 'Theirs', value: 'theirs' },
    ]);
    expect(plan.renamed).toEqual(['incident_status_closed']);
    expect(plan.added).toHaveLength(10);
    expect(plan.options?.slice(0, 2)).toEqual([
      { name: 'Closed', value: 'incident_status_closed' },
      { name: 'Theirs', value: 'theirs' },
    ]);
    expect(plan.options).toHaveLength(12);
  });
});

describe('coalesce: the Status field', () => {
  it('writes the option value of the newest status', () => {
    const { input } = coalesce(
      ctx(7),
      [
        change('takedown_success', '2030-01-01T00:00:02Z'),
        change('case_building', '2030-01-01T00:00:01Z'),
      ],
      'w1',
    );
    expect(input.custom_fields).toEqual([{ id: 7, value: 'incident_status_takedown_success' }]);
  });

  it('leaves the field out for a status without an option, and for an account without the field', () => {
    expect(
      coalesce(ctx(7), [change('legal_hold_review', '2030-01-01T00:00:00Z')], 'w1').input,
    ).not.toHaveProperty('custom_fields');
    expect(
      coalesce(ctx(null), [change('closed', '2030-01-01T00:00:00Z')], 'w1').input,
    ).not.toHaveProperty('custom_fields');
  });
});
