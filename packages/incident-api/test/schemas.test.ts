import { describe, expect, it } from 'vitest';
import {
  INCIDENT_STATUSES,
  WEBHOOK_EVENTS,
  ZClient,
  ZCursorPaging,
  ZDetailedIncident,
  ZDocument,
  ZIncident,
  ZIncidentInsights,
  ZIncidentListResponse,
  ZListEnvelope,
  ZOffsetPaging,
  ZReadEnvelope,
  ZReportResponse,
  ZResolutionsResponse,
  ZSnapshot,
  ZSnapshotsResponse,
  ZTakedownAttempts,
  ZUsage,
  ZUsageResponse,
  ZUser,
  ZUsersResponse,
  ZWebhookEnvelope,
  ZWebhookSubscription,
  isKnownIncidentStatus,
  parseWebhookEvent,
  type TIncidentStatus,
} from '../src';
import * as f from './support/fixtures';

describe('incident list items (IncidentStructure)', () => {
  it('parses a full item and a sparse item with every optional absent', () => {
    expect(ZIncident.parse(f.incidentFull)).toEqual(f.incidentFull);
    const sparse = ZIncident.parse(f.incidentSparse);
    expect(sparse.url).toBeUndefined();
    expect(sparse.domain).toBeUndefined();
    expect(sparse.threatTaxonomy).toBeUndefined();
  });

  it('lets unknown keys and unknown vocabulary values through', () => {
    const future = {
      ...f.incidentSparse,
      status: 'takedown_escalated',
      incidentType: 'sms',
      incidentClass: 'malware',
      source: 'partner_feed',
      newField: { nested: true },
    };
    const parsed = ZIncident.parse(future);
    expect(parsed.status).toBe('takedown_escalated');
    expect(parsed.incidentClass).toBe('malware');
    expect((parsed as Record<string, unknown>).newField).toEqual({ nested: true });
  });

  it('rejects an item missing an always-present field', () => {
    const { safeDomain: _, ...withoutSafeDomain } = f.incidentSparse;
    const result = ZIncident.safeParse(withoutSafeDomain);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['safeDomain']);
  });
});

describe('status vocabulary', () => {
  it('lists the eleven verbose statuses and still types a new one', () => {
    expect(INCIDENT_STATUSES).toHaveLength(11);
    expect(INCIDENT_STATUSES).toContain('approval_required');
    const future: TIncidentStatus = 'some_new_status';
    expect(isKnownIncidentStatus(future)).toBe(false);
    expect(isKnownIncidentStatus('closed')).toBe(true);
  });
});

describe('single incident (DetailedIncidentStructure)', () => {
  it('parses the full detail with expanded taxonomy, history, state, registrar, blocklists, insights', () => {
    const parsed = ZDetailedIncident.parse(f.detailedIncidentFull);
    expect(parsed.threatTaxonomy?.incidentThreatType?.name).toBe('Credential theft');
    expect(parsed.history[0]?.message).toBe('Takedown started');
    // author classification is not shown in the spec; it passes through
    expect((parsed.history[0] as Record<string, unknown>).author).toEqual({ type: 'analyst' });
    expect(parsed.registrar?.difficulty).toBe('medium');
    expect(parsed.insights?.hosting?.providers?.[0]?.isCdn).toBe(true);
    expect(parsed.insights?.indicators?.scrapeRoute?.mobileExit).toBe(false);
  });

  it('keeps a submitted listing with listedAt and link null', () => {
    const parsed = ZDetailedIncident.parse(f.detailedIncidentFull);
    const submitted = parsed.blocklists.find((listing) => listing.status === 'submitted');
    expect(submitted).toMatchObject({ listedAt: null, link: null });
  });

  it('parses the sparse detail: no registrar, no insights, empty history and blocklists', () => {
    const parsed = ZDetailedIncident.parse(f.detailedIncidentSparse);
    expect(parsed.registrar).toBeUndefined();
    expect(parsed.insights).toBeUndefined();
    expect(parsed.blocklists).toEqual([]);
  });

  it('requires clientId and blocklists on the detail', () => {
    const { clientId: _, ...noClient } = f.detailedIncidentSparse;
    expect(ZDetailedIncident.safeParse(noClient).success).toBe(false);
    const { blocklists: __, ...noBlocklists } = f.detailedIncidentSparse;
    expect(ZDetailedIncident.safeParse(noBlocklists).success).toBe(false);
  });

  it('keeps null = undetermined in insights instead of turning it into false or 0', () => {
    const parsed = ZIncidentInsights.parse(f.insightsUndetermined);
    expect(parsed.whois?.isNewDomain).toBeNull();
    expect(parsed.whois?.isExpired).toBeNull();
    expect(parsed.whois?.domainAgeDays).toBeNull();
    expect(parsed.certificate?.isValid).toBeNull();
    expect(parsed.hosting).toBeUndefined();
  });

  it('reads an insights block carrying only the timestamp (no category captured)', () => {
    expect(ZIncidentInsights.parse({ snapshotTimestamp: '2026-08-02T12:00:00.000Z' })).toEqual({
      snapshotTimestamp: '2026-08-02T12:00:00.000Z',
    });
    expect(ZIncidentInsights.safeParse({ dns: {} }).success).toBe(false);
  });
});

describe('snapshots', () => {
  it('parses a full snapshot and a sparse one with partial dns, whois and certificate', () => {
    expect(ZSnapshot.parse(f.snapshotFull)).toEqual(f.snapshotFull);
    const sparse = ZSnapshot.parse(f.snapshotSparse);
    expect(sparse.dns?.A?.records).toBeUndefined();
    expect(sparse.dns?.A?.rcode).toBe('SERVFAIL');
    expect(sparse.whois).toEqual({});
  });

  it('parses the snapshots response, including the empty list of a non-domain incident', () => {
    const full = ZSnapshotsResponse.parse({
      message: 'success',
      data: { incidentId: 'inc_abc123', snapshots: [f.snapshotFull, f.snapshotSparse] },
    });
    expect(full.data.snapshots).toHaveLength(2);
    const empty = ZSnapshotsResponse.parse({
      message: 'success',
      data: { incidentId: 'inc_2', snapshots: [] },
    });
    expect(empty.data.snapshots).toEqual([]);
  });
});

describe('takedown attempts', () => {
  it('parses every reading-rule case, including nulls for unknown start, unknown end and in progress', () => {
    const parsed = ZTakedownAttempts.parse(f.takedownAttempts);
    expect(parsed.takedownAttempts.map((a) => a.outcome)).toEqual([
      'failed',
      'closed',
      'success',
      'not_actionable',
      null,
    ]);
    expect(parsed.takedownAttempts[0]?.startedAt).toBeNull();
    expect(parsed.takedownAttempts[1]?.resolvedAt).toBeNull();
    expect(ZTakedownAttempts.parse(f.takedownAttemptsEmpty).takedownAttempts).toEqual([]);
  });

  it('parses a resolutions page and a search page without cursor', () => {
    const page = ZResolutionsResponse.parse({
      message: 'success',
      data: [f.takedownAttempts],
      paging: { next: 'c2', limit: 1, count: 1 },
    });
    expect(page.paging.next).toBe('c2');
    const search = ZResolutionsResponse.parse({
      message: 'success',
      data: [],
      paging: f.searchPaging,
    });
    expect(search.paging.cursor).toBeUndefined();
    expect(search.paging.next).toBeUndefined();
  });
});

describe('usage', () => {
  it.each([
    ['a number', f.usageNumber, 12],
    ['zero (depleted)', f.usageDepleted, 0],
    ['unlimited', f.usageUnlimited, 'unlimited'],
    ['null (does not use credits)', f.usageNoCredits, null],
  ])('reads remainingCredits as %s', (_label, fixture, expected) => {
    expect(ZUsage.parse(fixture).remainingCredits).toBe(expected);
  });

  it('rejects another string for remainingCredits and wraps usage in the read envelope', () => {
    expect(ZUsage.safeParse({ ...f.usageNumber, remainingCredits: 'lots' }).success).toBe(false);
    expect(
      ZUsageResponse.parse({ message: 'success', data: f.usageNoCredits }).data.remainingCredits,
    ).toBeNull();
  });
});

describe('users, clients and documents', () => {
  it('parses a full user and a staff-like sparse user with null names', () => {
    expect(ZUser.parse(f.userFull).roles).toEqual(['superuser', 'user']);
    const sparse = ZUser.parse(f.userSparse);
    expect(sparse.name).toBeNull();
    expect(sparse.clientId).toBeUndefined();
  });

  it('parses a users page with offset paging', () => {
    const page = ZUsersResponse.parse({
      message: 'success',
      data: [f.userFull, f.userSparse],
      paging: f.offsetPaging,
    });
    expect(page.paging.total).toBe(2);
    expect(ZOffsetPaging.safeParse({ limit: 1, count: 1 }).success).toBe(false);
  });

  it('parses a client account', () => {
    expect(ZClient.parse(f.clientAccount)).toEqual(f.clientAccount);
  });

  it('parses a full document and one where every nullable field is null', () => {
    expect(ZDocument.parse(f.documentFull).client?.parentClientId).toBe('parent_1');
    const nulls = ZDocument.parse(f.documentNulls);
    expect(nulls).toMatchObject({
      client: null,
      fileName: null,
      uploadedBy: null,
      createdAt: null,
    });
    expect(nulls.signedUrl).toBeUndefined();
  });
});

describe('paging and envelopes', () => {
  it('reads both end conditions: next null and next absent', () => {
    expect(ZCursorPaging.parse(f.cursorPagingEndNull).next).toBeNull();
    expect(ZCursorPaging.parse(f.cursorPagingEndAbsent).next).toBeUndefined();
    expect(ZCursorPaging.parse(f.cursorPagingMiddle).total).toBe(5);
  });

  it('builds read and list envelopes around any schema', () => {
    const list = ZIncidentListResponse.parse({
      message: 'success',
      data: [f.incidentFull, f.incidentSparse],
      paging: f.cursorPagingMiddle,
    });
    expect(list.data).toHaveLength(2);
    expect(
      ZListEnvelope(ZClient).safeParse({ message: 'success', data: [f.clientAccount] }).success,
    ).toBe(false);
    expect(
      ZReadEnvelope(ZClient).parse({ message: 'success', data: f.clientAccount }).data.name,
    ).toBe('Example');
  });

  it('reads a report answer with and without id (the duplicate form)', () => {
    expect(
      ZReportResponse.parse({ message: 'ok', id: 'inc_1', url: 'https://dash/incident/inc_1' }).id,
    ).toBe('inc_1');
    expect(ZReportResponse.parse({ message: 'Incident already exists' }).id).toBeUndefined();
  });
});

describe('webhooks', () => {
  it('parses a subscription carrying its secret', () => {
    expect(ZWebhookSubscription.parse(f.webhookSubscription).secret).toBe('whsec_abc');
  });

  it.each(WEBHOOK_EVENTS)('parses the %s event to its typed payload', (name) => {
    const result = parseWebhookEvent(f.webhookEvents[name]);
    expect(result).toMatchObject({ ok: true, known: true, event: { event: name } });
  });

  it('narrows the payload by event name', () => {
    const result = parseWebhookEvent(f.webhookEvents['incident.action_required']);
    if (!result.ok || !result.known) throw new Error('expected a known event');
    if (result.event.event !== 'incident.action_required') throw new Error('wrong event');
    expect(result.event.data.waitForClient).toBe('Please upload a letter of authorisation');
  });

  it('accepts omitted optional payload fields (receivers use fallbacks) and webhook.test without data', () => {
    const sparse = [
      { ...f.webhookEnvelopeBase, event: 'incident.status_changed', data: { incidentId: 'inc_1' } },
      {
        ...f.webhookEnvelopeBase,
        event: 'incident.history_created',
        data: { incidentId: 'inc_1' },
      },
      {
        ...f.webhookEnvelopeBase,
        event: 'incident.history_created',
        data: { incidentId: 'inc_1', historyEntry: {} },
      },
      {
        ...f.webhookEnvelopeBase,
        event: 'incident.action_required',
        data: { incidentId: 'inc_1' },
      },
      { ...f.webhookEnvelopeBase, event: 'webhook.test' },
    ];
    for (const body of sparse)
      expect(parseWebhookEvent(body)).toMatchObject({ ok: true, known: true });
  });

  it('passes an unknown event name as an untyped envelope, and rejects an incident event without incidentId', () => {
    const unknown = parseWebhookEvent({
      ...f.webhookEnvelopeBase,
      event: 'incident.deleted',
      data: { x: 1 },
    });
    expect(unknown).toMatchObject({ ok: true, known: false, event: { event: 'incident.deleted' } });
    const broken = parseWebhookEvent({
      ...f.webhookEnvelopeBase,
      event: 'incident.created',
      data: {},
    });
    expect(broken.ok).toBe(false);
    expect(parseWebhookEvent({ event: 'incident.created' }).ok).toBe(false);
    expect(ZWebhookEnvelope.safeParse({ id: 'evt_1', data: {} }).success).toBe(false);
  });

  it('needs only event and data: id, timestamp and clientId are optional (the spec shows only data)', () => {
    const bare = parseWebhookEvent({ event: 'incident.created', data: { incidentId: 'inc_1' } });
    expect(bare).toMatchObject({ ok: true, known: true, event: { data: { incidentId: 'inc_1' } } });
    if (!bare.ok) throw new Error('expected the bare envelope to parse');
    expect(bare.event.id).toBeUndefined();
    expect(bare.event.timestamp).toBeUndefined();
    expect(bare.event.clientId).toBeUndefined();
  });

  it('reads envelope and payload fields of an unexpected type as absent instead of rejecting the event', () => {
    const odd = parseWebhookEvent({
      id: 42,
      event: 'incident.action_required',
      timestamp: { at: 'now' },
      clientId: null,
      data: { incidentId: 'inc_1', waitForClient: { text: 'x' } },
    });
    if (!odd.ok || !odd.known || odd.event.event !== 'incident.action_required')
      throw new Error('expected a tolerant parse');
    expect(odd.event).toMatchObject({ id: undefined, timestamp: undefined, clientId: undefined });
    expect(odd.event.data.waitForClient).toBeUndefined();
    const history = parseWebhookEvent({
      event: 'incident.history_created',
      data: { incidentId: 'inc_1', historyEntry: 'text' },
    });
    expect(history).toMatchObject({ ok: true, known: true });
    const status = parseWebhookEvent({
      event: 'incident.status_changed',
      data: { incidentId: 'inc_1', status: 7 },
    });
    if (!status.ok || !status.known || status.event.event !== 'incident.status_changed')
      throw new Error('expected a tolerant parse');
    expect(status.event.data.status).toBeUndefined();
  });
});
