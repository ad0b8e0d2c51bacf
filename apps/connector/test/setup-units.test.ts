import { describe, expect, it } from 'vitest';
import type { TTrigger } from '@incident-desk/zendesk-api';
import { ZTicketingWebhookBody } from '../src/jobs/ticket-event-job';
import {
  buildTriggerDefinitions,
  incidentWebhookUrl,
  subscriptionIdOf,
  ticketingWebhookUrl,
} from '../src/setup';
import { triggerDrift } from '../src/setup/trigger-drift';

describe('receiver addresses', () => {
  it('builds the two receiver URLs with encoded ids, tolerating a trailing slash', () => {
    expect(ticketingWebhookUrl('https://c.example/', 'acc 1')).toBe(
      'https://c.example/ticketing/webhook?account=acc%201',
    );
    expect(incidentWebhookUrl('https://c.example', 'sub_a+b')).toBe(
      'https://c.example/webhooks/incident?subscription=sub_a%2Bb',
    );
  });

  it('reads the subscription id only from this connector incident receiver', () => {
    const url = incidentWebhookUrl('https://c.example/base', 'sub_1');
    expect(subscriptionIdOf('https://c.example/base', url)).toBe('sub_1');
    expect(subscriptionIdOf('https://other.example/base', url)).toBeNull();
    expect(subscriptionIdOf('https://c.example', url)).toBeNull();
    expect(
      subscriptionIdOf('https://c.example/base', 'https://c.example/base/webhooks/incident'),
    ).toBeNull();
    expect(subscriptionIdOf('https://c.example/base', 'not a url')).toBeNull();
  });
});

describe('trigger definitions', () => {
  const definitions = buildTriggerDefinitions({ webhookId: 'WH1', forwardInternalNotes: false });

  it('render bodies the ticketing receiver accepts, with identifiers only', () => {
    const rendered = definitions.map((definition) => {
      const [webhookId, body] = definition.actions[0]!.value as [string, string];
      expect(webhookId).toBe('WH1');
      const json = JSON.parse(
        body
          .replace('{{ticket.id}}', '42')
          .replace('{{ticket.requester.email}}', 'erin@example.com')
          .replace('{{ticket.updated_at_with_timestamp}}', '2026-11-21T10:00:00Z')
          .replace('{{ticket.latest_comment.id}}', '7001'),
      ) as unknown;
      expect(ZTicketingWebhookBody.safeParse(json).success).toBe(true);
      // the latest comment's id only, never its text
      expect(body.replace('{{ticket.latest_comment.id}}', '')).not.toMatch(
        /latest_comment|ticket_field|description|title/,
      );
      return json;
    });
    expect(rendered).toEqual([
      { kind: 'report', ticketId: '42', mode: 'takedown', requesterEmail: 'erin@example.com' },
      { kind: 'report', ticketId: '42', mode: 'monitor', requesterEmail: 'erin@example.com' },
      { kind: 'comment', ticketId: '42', updatedAt: '2026-11-21T10:00:00Z', commentId: '7001' },
      { kind: 'action', ticketId: '42', action: 'tkd', updatedAt: '2026-11-21T10:00:00Z' },
      { kind: 'action', ticketId: '42', action: 'monitor', updatedAt: '2026-11-21T10:00:00Z' },
      { kind: 'action', ticketId: '42', action: 'safe', updatedAt: '2026-11-21T10:00:00Z' },
    ]);
  });

  it('follow the contract conditions', () => {
    const byTitle = new Map(
      definitions.map((d) => [d.title.replace('incident-desk: ', ''), d.conditions.all]),
    );
    expect(byTitle.get('Report threat for takedown')).toEqual([
      { field: 'current_tags', operator: 'includes', value: 'incident_submit' },
      {
        field: 'current_tags',
        operator: 'not_includes',
        value: 'incident_linked incident_unlinked incident_submit_monitor',
      },
    ]);
    expect(byTitle.get('Forward comment')).toContainEqual({
      field: 'comment_is_public',
      operator: 'is',
      value: 'true',
    });
    expect(byTitle.get('Mark safe')).toEqual([
      { field: 'current_tags', operator: 'includes', value: 'incident_mark_safe' },
      { field: 'current_tags', operator: 'includes', value: 'incident_linked' },
    ]);
    const internal = buildTriggerDefinitions({ webhookId: 'WH1', forwardInternalNotes: true });
    expect(
      internal.find((d) => d.title.endsWith('Forward comment'))?.conditions.all,
    ).toContainEqual({
      field: 'comment_is_public',
      operator: 'is',
      value: 'not_relevant',
    });
  });
});

describe('triggerDrift', () => {
  const wanted = buildTriggerDefinitions({ webhookId: 'WH1', forwardInternalNotes: false })[0]!;
  const asStored = (patch: Partial<TTrigger> = {}): TTrigger => ({
    id: 1,
    title: wanted.title,
    active: true,
    conditions: { all: [...(wanted.conditions.all ?? [])].reverse(), any: [] },
    actions: wanted.actions,
    description: wanted.description ?? null,
    ...patch,
  });

  it('ignores condition order but not content, activity, actions or the description that carries setup’s mark', () => {
    expect(triggerDrift(asStored(), wanted)).toEqual([]);
    expect(triggerDrift(asStored({ description: 'Edited by the admin' }), wanted)).toEqual([
      'description',
    ]);
    expect(triggerDrift(asStored({ active: false }), wanted)).toEqual(['active']);
    expect(triggerDrift(asStored({ conditions: { all: [], any: [] } }), wanted)).toEqual([
      'conditions.all',
    ]);
    expect(
      triggerDrift(
        asStored({
          conditions: {
            all: wanted.conditions.all ?? [],
            any: [{ field: 'status', operator: 'is', value: 'new' }],
          },
        }),
        wanted,
      ),
    ).toEqual(['conditions.any']);
    expect(
      triggerDrift(
        asStored({ actions: [{ field: 'notification_webhook', value: ['WH2', 'x'] }] }),
        wanted,
      ),
    ).toEqual(['actions']);
  });
});
