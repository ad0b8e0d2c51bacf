// runSetup against both sandboxes over real HTTP, with a tiny local receiver standing in for
// the connector's two webhook routes.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createIncidentClient,
  verifyWebhook,
  type IncidentClient,
} from '@incident-desk/incident-api';
import { createIncidentSandbox, type IncidentSandbox } from '@incident-desk/incident-sandbox';
import { verifyZendeskWebhook, ZendeskClient } from '@incident-desk/zendesk-api';
import { createZendeskSandbox, type ZendeskSandbox } from '@incident-desk/zendesk-sandbox';
import { ZTicketingWebhookBody } from '../src/jobs/ticket-event-job';
import {
  ACTION_NEEDED_VIEW_TITLE,
  APPROVALS_VIEW_TITLE,
  buildQueueViews,
  buildTriggerDefinitions,
  runSetup,
  type SetupInput,
  type SetupResult,
  type StepReport,
} from '../src/setup';
import { STATUS_FIELD_OPTIONS } from '../src/setup/status-field';
import { triggerDrift } from '../src/setup/trigger-drift';
import { noteLocaleOf } from '../src/notes/texts';
import { eventually } from './support/eventually';

const CLIENT_IDS = ['cl_demo_parent', 'cl_demo_retail', 'cl_demo_bank'];

interface Received {
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
}

let zendeskSandbox: ZendeskSandbox;
let incidentSandbox: IncidentSandbox;
let zendeskUrl: string;
let incidentUrl: string;
let receiver: Server;
let connectorUrl: string;
const received: Received[] = [];
const closers: (() => Promise<void>)[] = [];
let accountCounter = 0;

interface Account {
  accountId: string;
  subdomain: string;
  adminId: number;
  endUserEmail: string;
  zendesk: ZendeskClient;
  input: SetupInput;
}

async function control(
  path: string,
  method: string,
  body?: unknown,
  base = zendeskUrl,
): Promise<unknown> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

function newAccount(): Account {
  accountCounter += 1;
  const subdomain = `setup${accountCounter}`;
  const accountId = `00000000-0000-4000-8000-00000000${String(accountCounter).padStart(4, '0')}`;
  zendeskSandbox.createAccount(subdomain);
  const admin = zendeskSandbox.createUser(subdomain, {
    name: 'Ada Admin',
    email: `admin@${subdomain}.example`,
    role: 'admin',
  });
  const token = zendeskSandbox.issueToken(subdomain, admin.id, ['read', 'write'], 7200);
  const tokenProvider = {
    getAccessToken: async () => token,
    refreshAfterUnauthorized: async () => token,
  };
  const baseUrl = `${zendeskUrl}/_z/${subdomain}`;
  const zendesk = new ZendeskClient({ baseUrl, tokenProvider, retry: false });
  const incidents: IncidentClient = createIncidentClient({
    baseURL: incidentUrl,
    apiKey: 'sandbox-demo-key',
    retry: false,
  });
  return {
    accountId,
    subdomain,
    adminId: admin.id,
    endUserEmail: `erin@${subdomain}.example`,
    zendesk,
    input: {
      accountId,
      connectorUrl,
      zendesk,
      incidents,
      incidentClientIds: CLIENT_IDS,
      forwardInternalNotes: false,
    },
  };
}

function existingFrom(result: SetupResult): SetupInput['existing'] {
  return {
    fields: result.fields,
    zendeskWebhookId: result.zendeskWebhook?.id,
    triggerIds: result.triggerIds ?? undefined,
    viewIds: result.views ?? undefined,
    incidentSubscriptions: result.incidentSubscriptions.map(
      ({ clientId, subscriptionId, webhookId, secret }) => ({
        clientId,
        subscriptionId,
        webhookId,
        secret,
      }),
    ),
  };
}

const outcomes = (steps: StepReport[], step: StepReport['step']) =>
  steps.filter((s) => s.step === step).map((s) => s.outcome);

async function fieldById(account: Account, id: number) {
  for await (const field of account.zendesk.ticketFields.list()) if (field.id === id) return field;
  return undefined;
}

const optionsOf = (field: { custom_field_options?: { name: string; value: string }[] | null }) =>
  (field.custom_field_options ?? []).map(({ name, value }) => ({ name, value }));

async function counts(account: Account) {
  const fields = [];
  // the account's custom fields: Zendesk lists its system fields (subject, status...) too
  for await (const field of account.zendesk.ticketFields.list())
    if (field.removable !== false) fields.push(field);
  const triggers = [];
  for await (const trigger of account.zendesk.triggers.list()) triggers.push(trigger);
  const webhooks = [];
  for await (const webhook of account.zendesk.webhooks.list()) webhooks.push(webhook);
  const views = [];
  for await (const view of account.zendesk.views.list()) views.push(view);
  const subscriptions = (await account.input.incidents.webhooks.list()).filter(
    (record) => record.description === `incident-desk account ${account.accountId}`,
  );
  return {
    fields: fields.length,
    triggers: triggers.length,
    webhooks: webhooks.length,
    views: views.length,
    subscriptions: subscriptions.length,
  };
}

function waitFor<T>(find: () => T | undefined, what: string): Promise<T> {
  return eventually(what, find, { intervalMs: 20 });
}

function ticketingDeliveries(accountId: string): Received[] {
  return received.filter(
    (r) => r.path === '/ticketing/webhook' && r.query.get('account') === accountId,
  );
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://receiver');
      received.push({
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        raw: Buffer.concat(chunks),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"accepted"}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  connectorUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  closers.push(() => new Promise((resolve) => receiver.close(() => resolve())));

  zendeskSandbox = createZendeskSandbox({
    webhooks: { retryDelaysMs: [5, 5, 5], timeoutMs: 2000 },
  });
  const zendeskListening = await zendeskSandbox.listen(0);
  zendeskUrl = zendeskListening.url;
  closers.push(zendeskListening.close);

  incidentSandbox = createIncidentSandbox({ webhookDelayMs: 5, webhookRetryDelaysMs: [20] });
  const incidentListening = await incidentSandbox.listen(0);
  incidentUrl = incidentListening.url;
  closers.push(() => incidentSandbox.close());
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

describe('runSetup', () => {
  it('creates everything on the first run and nothing on the second', async () => {
    const account = newAccount();
    const first = await runSetup(account.input);

    expect(first.ok).toBe(true);
    expect(outcomes(first.steps, 'ticket_field')).toEqual(['created', 'created', 'created']);
    expect(outcomes(first.steps, 'zendesk_webhook')).toEqual(['created']);
    expect(outcomes(first.steps, 'trigger')).toEqual(Array(6).fill('created'));
    expect(outcomes(first.steps, 'view')).toEqual(['created', 'created']);
    expect(first.views).toHaveLength(2);
    expect(outcomes(first.steps, 'incident_subscription')).toEqual([
      'created',
      'created',
      'created',
    ]);
    expect(outcomes(first.steps, 'incident_test_delivery')).toEqual([
      'requested',
      'requested',
      'requested',
    ]);
    expect(first.fields.threat).toEqual(expect.any(Number));
    expect(first.fields.incidentId).toEqual(expect.any(Number));
    expect(first.fields.status).toEqual(expect.any(Number));
    expect(first.zendeskWebhook?.secret).toEqual(expect.any(String));
    expect(first.incidentSubscriptions.map((s) => s.clientId)).toEqual(CLIENT_IDS);
    expect(new Set(first.incidentSubscriptions.map((s) => s.subscriptionId)).size).toBe(3);
    expect(
      first.incidentSubscriptions.every(
        (s) => s.testDelivery === 'requested' && s.secret.length > 0,
      ),
    ).toBe(true);

    const webhook = await account.zendesk.webhooks.show(first.zendeskWebhook!.id);
    expect(webhook.endpoint).toBe(`${connectorUrl}/ticketing/webhook?account=${account.accountId}`);
    const before = await counts(account);
    expect(before).toEqual({ fields: 3, triggers: 6, webhooks: 1, views: 2, subscriptions: 3 });

    const second = await runSetup({ ...account.input, existing: existingFrom(first) });
    expect(second.ok).toBe(true);
    expect(
      second.steps
        .filter((s) => s.step !== 'incident_test_delivery')
        .every((s) => s.outcome === 'found'),
    ).toBe(true);
    expect(second.fields).toEqual(first.fields);
    expect(second.zendeskWebhook).toEqual(first.zendeskWebhook);
    expect(second.triggers).toEqual(first.triggers);
    expect(second.views).toEqual(first.views);
    expect(
      second.incidentSubscriptions.map(({ webhookId, subscriptionId, secret }) => ({
        webhookId,
        subscriptionId,
        secret,
      })),
    ).toEqual(
      first.incidentSubscriptions.map(({ webhookId, subscriptionId, secret }) => ({
        webhookId,
        subscriptionId,
        secret,
      })),
    );
    expect(await counts(account)).toEqual(before);
  });

  it("reads the account's default language, which notes are written in", async () => {
    const account = newAccount();
    expect((await runSetup(account.input)).zendeskLocale).toBe('en-US');
    zendeskSandbox.state.account(account.subdomain)!.defaultLocale = 'fr-ca';
    const again = await runSetup(account.input);
    expect(again.ok).toBe(true);
    expect(again.zendeskLocale).toBe('fr-ca');
    expect(noteLocaleOf(again.zendeskLocale)).toBe('fr');
    // a token that may not read it: setup goes on, the language stored before stays
    const narrow = zendeskSandbox.issueToken(account.subdomain, account.adminId, ['write'], 7200);
    const zendesk = new ZendeskClient({
      baseUrl: `${zendeskUrl}/_z/${account.subdomain}`,
      tokenProvider: {
        getAccessToken: async () => narrow,
        refreshAfterUnauthorized: async () => narrow,
      },
      retry: false,
    });
    const unread = await runSetup({ ...account.input, zendesk });
    expect(unread.zendeskLocale).toBeUndefined();
  });

  it('delivers a signed webhook.test per client to its own subscription address', async () => {
    const account = newAccount();
    const result = await runSetup(account.input);
    await incidentSandbox.idle();

    for (const subscription of result.incidentSubscriptions) {
      const delivery = await waitFor(
        () =>
          received.find(
            (r) =>
              r.path === '/webhooks/incident' &&
              r.query.get('subscription') === subscription.subscriptionId,
          ),
        `webhook.test for ${subscription.clientId}`,
      );
      const verified = verifyWebhook({
        secrets: [subscription.secret],
        rawBody: delivery.raw,
        headers: delivery.headers,
      });
      expect(verified.ok).toBe(true);
      const others = result.incidentSubscriptions
        .filter((s) => s !== subscription)
        .map((s) => s.secret);
      expect(
        verifyWebhook({ secrets: others, rawBody: delivery.raw, headers: delivery.headers }).ok,
      ).toBe(false);
      expect(JSON.parse(delivery.raw.toString('utf8'))).toMatchObject({
        event: 'webhook.test',
        clientId: subscription.clientId,
      });
    }
  });

  it('finds everything again when the stored state was lost, rotating the incident secrets', async () => {
    const account = newAccount();
    const first = await runSetup(account.input);
    const before = await counts(account);

    const rerun = await runSetup(account.input); // no `existing`
    expect(rerun.ok).toBe(true);
    expect(outcomes(rerun.steps, 'ticket_field')).toEqual(['found', 'found', 'found']);
    expect(outcomes(rerun.steps, 'zendesk_webhook')).toEqual(['found']);
    expect(outcomes(rerun.steps, 'trigger')).toEqual(Array(6).fill('found'));
    expect(outcomes(rerun.steps, 'incident_subscription')).toEqual([
      'updated',
      'updated',
      'updated',
    ]);
    expect(rerun.steps.find((s) => s.step === 'incident_subscription')?.message).toMatch(/rotated/);
    expect(rerun.zendeskWebhook).toEqual(first.zendeskWebhook);
    expect(rerun.fields).toEqual(first.fields);
    expect(rerun.incidentSubscriptions.map((s) => s.subscriptionId)).toEqual(
      first.incidentSubscriptions.map((s) => s.subscriptionId),
    );
    expect(rerun.incidentSubscriptions.map((s) => s.secret)).not.toEqual(
      first.incidentSubscriptions.map((s) => s.secret),
    );
    expect(await counts(account)).toEqual(before);

    // The rotated secret is the one the service now signs with.
    await incidentSandbox.idle();
    const parent = rerun.incidentSubscriptions[0]!;
    const deliveries = received.filter(
      (r) => r.query.get('subscription') === parent.subscriptionId,
    );
    const last = deliveries.at(-1)!;
    expect(
      verifyWebhook({ secrets: [parent.secret], rawBody: last.raw, headers: last.headers }).ok,
    ).toBe(true);
  });

  it('restores a drifted trigger and recreates a deleted field', async () => {
    const account = newAccount();
    const first = await runSetup(account.input);
    const takedown = first.triggers.find((t) => t.title.endsWith('Request takedown'))!;
    await account.zendesk.triggers.update(takedown.id, {
      conditions: {
        all: [{ field: 'current_tags', operator: 'includes', value: 'incident_request_takedown' }],
        any: [],
      },
    });
    zendeskSandbox.state.account(account.subdomain)!.ticketFields.delete(first.fields.status!);

    const rerun = await runSetup({ ...account.input, existing: existingFrom(first) });
    expect(rerun.ok).toBe(true);
    const triggerSteps = rerun.steps.filter((s) => s.step === 'trigger');
    expect(triggerSteps.filter((s) => s.outcome === 'updated')).toEqual([
      {
        step: 'trigger',
        target: takedown.title,
        outcome: 'updated',
        message: 'restored conditions.all',
      },
    ]);
    expect(triggerSteps.filter((s) => s.outcome === 'created')).toEqual([]);
    expect(
      rerun.steps.filter((s) => s.step === 'ticket_field').map((s) => `${s.target}:${s.outcome}`),
    ).toEqual(['Threat URL:found', 'Incident ID:found', 'Incident Status:created']);
    expect(rerun.fields.status).not.toBe(first.fields.status);
    expect(rerun.fields.threat).toBe(first.fields.threat);

    const wanted = buildTriggerDefinitions({
      webhookId: rerun.zendeskWebhook!.id,
      forwardInternalNotes: false,
    }).find((d) => d.title === takedown.title)!;
    const restored = [];
    for await (const trigger of account.zendesk.triggers.list())
      if (trigger.id === takedown.id) restored.push(trigger);
    expect(triggerDrift(restored[0]!, wanted)).toEqual([]);
    expect((await counts(account)).triggers).toBe(6);
  });

  it('creates Incident Status as a drop-down of every status, named as the sidebar names it', async () => {
    const account = newAccount();
    const first = await runSetup(account.input);
    const field = (await fieldById(account, first.fields.status!))!;
    expect(field.type).toBe('tagger');
    expect(optionsOf(field)).toEqual(STATUS_FIELD_OPTIONS);
    expect(optionsOf(field)).toHaveLength(11);
    expect(optionsOf(field)).toContainEqual({
      name: 'Approval required',
      value: 'incident_status_approval_required',
    });
    expect(optionsOf(field)).toContainEqual({
      name: 'Monitoring',
      value: 'incident_status_pre_weaponised',
    });
  });

  it('migrates a text Incident Status: a drop-down is configured in its place, the text field is left as it was', async () => {
    const account = newAccount();
    const text = await account.zendesk.ticketFields.create({
      type: 'text',
      title: 'Incident Status',
      description: 'Latest incident status (incident-desk)',
    });
    const migrated = await runSetup({
      ...account.input,
      existing: { fields: { status: text.id } },
    });
    expect(migrated.fields.status).not.toBe(text.id);
    expect(migrated.steps.find((s) => s.target === 'Incident Status')).toEqual({
      step: 'ticket_field',
      target: 'Incident Status',
      outcome: 'created',
      message: `replaces the text field ${text.id}, which is kept unchanged and no longer written`,
    });
    const dropDown = (await fieldById(account, migrated.fields.status!))!;
    expect(dropDown).toMatchObject({ type: 'tagger', title: 'Incident Status' });
    expect(optionsOf(dropDown)).toEqual(STATUS_FIELD_OPTIONS);
    expect(await fieldById(account, text.id)).toMatchObject({
      type: 'text',
      title: 'Incident Status',
      active: true,
    });

    // Once migrated, a rerun keeps the drop-down, with or without the stored id.
    const again = await runSetup({ ...account.input, existing: existingFrom(migrated) });
    expect(again.fields.status).toBe(migrated.fields.status);
    expect(again.steps.find((s) => s.target === 'Incident Status')?.outcome).toBe('found');
    const lost = await runSetup(account.input);
    expect(lost.fields.status).toBe(migrated.fields.status);
  });

  it('adds missing options to an existing drop-down and renames ours, keeping options an admin added', async () => {
    const account = newAccount();
    // setup's drop-down of an earlier version (its mark), whose options an admin edited
    const existing = await account.zendesk.ticketFields.create({
      type: 'tagger',
      title: 'Incident Status',
      description: 'Latest incident status (incident-desk)',
      custom_field_options: [
        { name: 'Approve it?', value: 'incident_status_approval_required' },
        { name: 'Escalated to legal', value: 'escalated_to_legal' },
      ],
    });
    const keptOptionId = existing.custom_field_options![0]!.id;
    const result = await runSetup(account.input);
    expect(result.fields.status).toBe(existing.id);
    const step = result.steps.find((s) => s.target === 'Incident Status')!;
    expect(step.outcome).toBe('updated');
    expect(step.message).toMatch(/^added options incident_status_pending_review, /);
    expect(step.message).toMatch(/; renamed options incident_status_approval_required$/);
    const field = (await fieldById(account, existing.id))!;
    expect(optionsOf(field)).toEqual([
      { name: 'Approval required', value: 'incident_status_approval_required' },
      { name: 'Escalated to legal', value: 'escalated_to_legal' },
      ...STATUS_FIELD_OPTIONS.filter((o) => o.value !== 'incident_status_approval_required'),
    ]);
    expect(field.custom_field_options![0]!.id).toBe(keptOptionId);
    const again = await runSetup({ ...account.input, existing: existingFrom(result) });
    expect(again.steps.find((s) => s.target === 'Incident Status')?.outcome).toBe('found');
  });

  it("never takes an admin's trigger or field of setup's title for its own: left as they are, named in the step, and its own found again after a lost database", async () => {
    const account = newAccount();
    const takedownTitle = 'incident-desk: Report threat for takedown';
    const adminTriggers: number[] = [];
    for (const title of [takedownTitle, 'incident-desk: report'])
      adminTriggers.push(
        (
          await account.zendesk.triggers.create({
            title,
            description: 'Our own escalation',
            conditions: {
              all: [{ field: 'current_tags', operator: 'includes', value: 'escalate' }],
              any: [],
            },
            actions: [{ field: 'priority', value: 'high' }],
          })
        ).id,
      );
    const adminField = await account.zendesk.ticketFields.create({
      type: 'text',
      title: 'Threat URL',
      description: 'Where the customer saw it',
    });
    const snapshot = async () => {
      const triggers = [];
      for await (const trigger of account.zendesk.triggers.list())
        if (adminTriggers.includes(trigger.id))
          triggers.push({ ...trigger, updated_at: undefined, position: undefined });
      return { triggers, field: await fieldById(account, adminField.id) };
    };
    const before = await snapshot();
    expect(before.triggers).toHaveLength(2);
    const beforeSetup = await counts(account);

    const first = await runSetup(account.input);
    expect(first.ok).toBe(true);
    expect(first.steps.find((s) => s.target === takedownTitle)).toEqual({
      step: 'trigger',
      target: takedownTitle,
      outcome: 'created',
      message: `left the account's own trigger(s) of that title as they are (trigger ${adminTriggers[0]})`,
    });
    expect(first.steps.find((s) => s.target === 'Threat URL')).toEqual({
      step: 'ticket_field',
      target: 'Threat URL',
      outcome: 'created',
      message: `left the account's own field(s) of that title as they are (field ${adminField.id})`,
    });
    expect(first.fields.threat).not.toBe(adminField.id);
    expect(first.triggerIds).toHaveLength(6);
    expect(first.triggerIds!.some((id) => adminTriggers.includes(id))).toBe(false);
    expect(await snapshot()).toEqual(before);
    const counted = await counts(account);
    expect(counted).toMatchObject({
      fields: beforeSetup.fields + 3,
      triggers: beforeSetup.triggers + 6,
    });

    // a rerun finds setup's own by their stored ids; with them lost, by setup's mark, never the
    // admin's by title; nothing is made twice, and the admin's are still as they were
    for (const existing of [existingFrom(first), undefined]) {
      const rerun = await runSetup({ ...account.input, existing });
      expect(outcomes(rerun.steps, 'trigger')).toEqual(Array(6).fill('found'));
      expect(outcomes(rerun.steps, 'ticket_field')).toEqual(['found', 'found', 'found']);
      expect(rerun.triggerIds).toEqual(first.triggerIds);
      expect(rerun.fields).toEqual(first.fields);
      expect(await counts(account)).toEqual(counted);
      expect(await snapshot()).toEqual(before);
    }
  });

  it('switches the comment trigger to internal notes as well when the setting changes', async () => {
    const account = newAccount();
    const first = await runSetup(account.input);
    const rerun = await runSetup({
      ...account.input,
      forwardInternalNotes: true,
      existing: existingFrom(first),
    });
    expect(
      rerun.steps
        .filter((s) => s.step === 'trigger' && s.outcome === 'updated')
        .map((s) => s.target),
    ).toEqual(['incident-desk: Forward comment']);
  });

  it('fires the webhook with signed identifier-only bodies when a ticket is tagged or commented', async () => {
    const account = newAccount();
    const result = await runSetup(account.input);
    const secret = result.zendeskWebhook!.secret;
    const bodies = () =>
      ticketingDeliveries(account.accountId).map((delivery) => {
        const verified = verifyZendeskWebhook({
          secret,
          rawBody: delivery.raw,
          signature: delivery.headers['x-zendesk-webhook-signature'] as string | undefined,
          timestamp: delivery.headers['x-zendesk-webhook-signature-timestamp'] as
            string | undefined,
        });
        expect(verified.ok).toBe(true);
        return JSON.parse(delivery.raw.toString('utf8')) as Record<string, unknown>;
      });

    const created = (await control(`/_sandbox/accounts/${account.subdomain}/tickets`, 'POST', {
      requester: { name: 'Erin', email: account.endUserEmail },
      subject: 'Phishing page',
      body: 'See https://phish.example/login',
      tags: ['incident_submit'],
    })) as { ticket: { id: number } };
    const ticketId = created.ticket.id;
    await zendeskSandbox.webhooksIdle();
    await waitFor(() => (bodies().length >= 1 ? true : undefined), 'report delivery');
    expect(bodies()).toEqual([
      {
        kind: 'report',
        ticketId: String(ticketId),
        mode: 'takedown',
        requesterEmail: account.endUserEmail,
      },
    ]);

    await account.zendesk.tickets.update(ticketId, {
      additional_tags: ['incident_linked', 'incident_request_takedown'],
    });
    await account.zendesk.tickets.update(ticketId, {
      comment: { body: 'We are on it.', public: true },
    });
    await account.zendesk.tickets.update(ticketId, {
      comment: { body: 'internal only', public: false },
    });
    await zendeskSandbox.webhooksIdle();
    await waitFor(() => (bodies().length >= 4 ? true : undefined), 'action and comment deliveries');

    const all = bodies();
    for (const body of all) {
      expect(ZTicketingWebhookBody.safeParse(body).success).toBe(true);
      expect(JSON.stringify(body)).not.toMatch(/We are on it|phish\.example|internal only/);
    }
    const kinds = all.map(
      (body) => `${String(body.kind)}:${String(body.action ?? body.mode ?? '')}`,
    );
    // The takedown request tag stays until the connector removes it, so each later update fires it again;
    // the receiver deduplicates on the update timestamp.
    expect(kinds.filter((kind) => kind === 'action:tkd').length).toBeGreaterThanOrEqual(1);
    expect(kinds.filter((kind) => kind === 'comment:')).toHaveLength(1);
    expect(kinds.filter((kind) => kind.startsWith('report:'))).toHaveLength(1);
    const action = all.find((body) => body.kind === 'action')!;
    expect(Object.keys(action).sort()).toEqual(['action', 'kind', 'ticketId', 'updatedAt']);
    expect(action.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('reports a monitoring request with mode monitor', async () => {
    const account = newAccount();
    const result = await runSetup(account.input);
    const created = (await control(`/_sandbox/accounts/${account.subdomain}/tickets`, 'POST', {
      requester: { name: 'Erin', email: account.endUserEmail },
      subject: 'Suspicious domain',
      body: 'please watch it',
      tags: ['incident_submit_monitor'],
    })) as { ticket: { id: number } };
    await zendeskSandbox.webhooksIdle();
    const delivery = await waitFor(
      () => ticketingDeliveries(account.accountId)[0],
      'monitor report',
    );
    expect(
      verifyZendeskWebhook({
        secret: result.zendeskWebhook!.secret,
        rawBody: delivery.raw,
        signature: delivery.headers['x-zendesk-webhook-signature'] as string,
        timestamp: delivery.headers['x-zendesk-webhook-signature-timestamp'] as string,
      }).ok,
    ).toBe(true);
    expect(JSON.parse(delivery.raw.toString('utf8'))).toEqual({
      kind: 'report',
      ticketId: String(created.ticket.id),
      mode: 'monitor',
      requesterEmail: account.endUserEmail,
    });
  });

  it('reports a failing step and still runs the others', async () => {
    const account = newAccount();
    const first = await runSetup(account.input);
    await control('/_sandbox/faults', 'POST', {
      path: '/api/v2/ticket_fields*',
      method: 'GET',
      kind: 'error',
      status: 500,
      subdomain: account.subdomain,
      times: 1,
    });
    const retail = first.incidentSubscriptions.find((s) => s.clientId === 'cl_demo_retail')!;
    await control(
      '/_sandbox/faults',
      'POST',
      {
        method: 'POST',
        path: `/v1/webhooks/${retail.webhookId}/test`,
        kind: 'status',
        status: 502,
        times: 1,
      },
      incidentUrl,
    );

    const rerun = await runSetup({ ...account.input, existing: existingFrom(first) });
    expect(rerun.ok).toBe(false);
    const fieldSteps = rerun.steps.filter((s) => s.step === 'ticket_field');
    expect(fieldSteps.map((s) => s.outcome)).toEqual(['failed', 'failed', 'failed']);
    expect(fieldSteps[0]?.message).toMatch(/could not list ticket fields.*500/);
    expect(rerun.fields).toEqual(first.fields); // the stored ids survive a failed lookup
    expect(outcomes(rerun.steps, 'zendesk_webhook')).toEqual(['found']);
    expect(outcomes(rerun.steps, 'trigger')).toEqual(Array(6).fill('found'));
    expect(outcomes(rerun.steps, 'incident_subscription')).toEqual(['found', 'found', 'found']);
    expect(
      rerun.steps
        .filter((s) => s.step === 'incident_test_delivery')
        .map((s) => `${s.target}:${s.outcome}`),
    ).toEqual(['cl_demo_parent:requested', 'cl_demo_retail:failed', 'cl_demo_bank:requested']);
    expect(
      rerun.incidentSubscriptions.find((s) => s.clientId === 'cl_demo_retail')?.testDelivery,
    ).toBe('failed');
  });

  it('deletes the subscription of a client no longer configured', async () => {
    const account = newAccount();
    const first = await runSetup(account.input);
    const rerun = await runSetup({
      ...account.input,
      incidentClientIds: ['cl_demo_parent', 'cl_demo_retail'],
      existing: existingFrom(first),
    });
    expect(rerun.ok).toBe(true);
    expect(rerun.steps.filter((s) => s.step === 'incident_subscription')).toEqual([
      { step: 'incident_subscription', target: 'cl_demo_parent', outcome: 'found' },
      { step: 'incident_subscription', target: 'cl_demo_retail', outcome: 'found' },
      {
        step: 'incident_subscription',
        target: 'cl_demo_bank',
        outcome: 'updated',
        message: expect.stringMatching(/no longer configured/),
      },
    ]);
    expect(rerun.incidentSubscriptions.map((s) => s.clientId)).toEqual([
      'cl_demo_parent',
      'cl_demo_retail',
    ]);
    expect((await counts(account)).subscriptions).toBe(2);
  });

  it('keeps the stored subscriptions when the incident service cannot list them', async () => {
    const account = newAccount();
    const first = await runSetup(account.input);
    await control(
      '/_sandbox/faults',
      'POST',
      { method: 'GET', path: '/v1/webhooks', kind: 'status', status: 503, times: 1 },
      incidentUrl,
    );
    const rerun = await runSetup({ ...account.input, existing: existingFrom(first) });
    expect(rerun.ok).toBe(false);
    expect(outcomes(rerun.steps, 'incident_subscription')).toEqual(['failed', 'failed', 'failed']);
    expect(rerun.steps.find((s) => s.step === 'incident_subscription')?.message).toMatch(
      /could not list webhook subscriptions/,
    );
    expect(
      rerun.incidentSubscriptions.map(({ clientId, subscriptionId, webhookId, secret }) => ({
        clientId,
        subscriptionId,
        webhookId,
        secret,
      })),
    ).toEqual(existingFrom(first)!.incidentSubscriptions);
    expect(outcomes(rerun.steps, 'trigger')).toEqual(Array(6).fill('found'));
  });

  it('creates a new Zendesk webhook when the stored one was deleted, and repoints the triggers', async () => {
    const account = newAccount();
    const first = await runSetup(account.input);
    zendeskSandbox.state.account(account.subdomain)!.webhooks.delete(first.zendeskWebhook!.id);

    const rerun = await runSetup({ ...account.input, existing: existingFrom(first) });
    expect(rerun.ok).toBe(true);
    expect(rerun.steps.find((s) => s.step === 'zendesk_webhook')).toMatchObject({
      outcome: 'created',
      message: 'the stored webhook no longer exists',
    });
    expect(rerun.zendeskWebhook!.id).not.toBe(first.zendeskWebhook!.id);
    expect(outcomes(rerun.steps, 'trigger')).toEqual(Array(6).fill('updated'));
    expect(rerun.triggers).toEqual(first.triggers);
    expect(await counts(account)).toMatchObject({ webhooks: 1, triggers: 6 });
  });

  it('keeps one webhook per receiver: deletes copies and reactivates the one it keeps', async () => {
    const account = newAccount();
    const first = await runSetup(account.input);
    const kept = first.zendeskWebhook!;
    const copy = await account.zendesk.webhooks.create({
      name: 'copy',
      endpoint: (await account.zendesk.webhooks.show(kept.id)).endpoint,
      http_method: 'POST',
      request_format: 'json',
      status: 'inactive',
      subscriptions: ['conditional_ticket_events'],
    });
    await account.zendesk.webhooks.update(kept.id, { status: 'inactive' });

    const rerun = await runSetup(account.input); // stored id lost: found by endpoint
    expect(rerun.steps.find((s) => s.step === 'zendesk_webhook')).toMatchObject({
      outcome: 'updated',
      message: expect.stringMatching(/deleted 1 duplicate.*activated/),
    });
    expect([kept.id, copy.id]).toContain(rerun.zendeskWebhook!.id);
    const remaining = [];
    for await (const webhook of account.zendesk.webhooks.list()) remaining.push(webhook);
    expect(remaining).toEqual([
      expect.objectContaining({ id: rerun.zendeskWebhook!.id, status: 'active' }),
    ]);
  });

  it('skips the triggers when the Zendesk webhook cannot be made', async () => {
    const account = newAccount();
    await control('/_sandbox/faults', 'POST', {
      path: '/api/v2/webhooks',
      method: 'POST',
      kind: 'error',
      status: 500,
      subdomain: account.subdomain,
      times: 1,
    });
    const result = await runSetup(account.input);
    expect(result.ok).toBe(false);
    expect(result.zendeskWebhook).toBeNull();
    expect(result.steps.find((s) => s.step === 'zendesk_webhook')).toMatchObject({
      outcome: 'failed',
      message: expect.stringMatching(/500/),
    });
    expect(result.steps.filter((s) => s.step === 'trigger')).toEqual([
      {
        step: 'trigger',
        target: 'all triggers',
        outcome: 'skipped',
        message: 'the Zendesk webhook is missing',
      },
    ]);
    expect(outcomes(result.steps, 'ticket_field')).toEqual(['created', 'created', 'created']);
    expect(outcomes(result.steps, 'incident_subscription')).toEqual([
      'created',
      'created',
      'created',
    ]);
    expect((await counts(account)).triggers).toBe(0);

    const retry = await runSetup({ ...account.input, existing: existingFrom(result) });
    expect(retry.ok).toBe(true);
    expect(outcomes(retry.steps, 'zendesk_webhook')).toEqual(['created']);
    expect(outcomes(retry.steps, 'incident_subscription')).toEqual(['found', 'found', 'found']);
    expect((await counts(account)).webhooks).toBe(1);
  });
  describe('the queue views', () => {
    const viewTickets = async (account: Account, viewId: number) => {
      const ids: number[] = [];
      for await (const ticket of account.zendesk.views.tickets(viewId)) ids.push(ticket.id);
      return ids;
    };
    const viewsOf = async (account: Account) => {
      const views = [];
      for await (const view of account.zendesk.views.list()) views.push(view);
      return views;
    };

    it('hold every open ticket waiting for approval, and every one waiting for the customer', async () => {
      const account = newAccount();
      const result = await runSetup(account.input);
      const views = await viewsOf(account);
      const approvals = views.find((v) => v.title === APPROVALS_VIEW_TITLE)!;
      const needed = views.find((v) => v.title === ACTION_NEEDED_VIEW_TITLE)!;
      expect(result.views).toEqual([approvals.id, needed.id]);
      expect(approvals.restriction ?? null).toBeNull();

      const statusField = result.fields.status!;
      const ticket = async (incidentStatus: string | null, status: 'open' | 'solved' = 'open') =>
        (
          await account.zendesk.tickets.create({
            subject: `an incident ${incidentStatus ?? 'unlinked'}`,
            comment: { body: 'reported' },
            status,
            custom_fields: [{ id: statusField, value: incidentStatus }],
          })
        ).ticket.id;
      const approval = await ticket('incident_status_approval_required');
      const action = await ticket('incident_status_action_required');
      await ticket('incident_status_takedown_in_progress');
      await ticket(null);
      await ticket('incident_status_approval_required', 'solved');

      expect(await viewTickets(account, approvals.id)).toEqual([approval]);
      expect((await viewTickets(account, needed.id)).sort()).toEqual([approval, action].sort());
    });

    it('are found by title on a rerun: a copy is deleted, drifted conditions restored, a deleted one recreated', async () => {
      const account = newAccount();
      const first = await runSetup(account.input);
      const [approvalsId, neededId] = first.views!;
      const wanted = buildQueueViews(first.fields.status!);
      await account.zendesk.views.create(wanted[0]!);
      await account.zendesk.views.update(approvalsId!, {
        all: [{ field: 'status', operator: 'less_than', value: 'solved' }],
        any: [],
      });
      await account.zendesk.views.delete(neededId!);

      const rerun = await runSetup({ ...account.input, existing: existingFrom(first) });
      expect(rerun.steps.filter((s) => s.step === 'view')).toEqual([
        {
          step: 'view',
          target: APPROVALS_VIEW_TITLE,
          outcome: 'updated',
          message: 'restored its conditions; deleted 1 duplicate(s)',
        },
        { step: 'view', target: ACTION_NEEDED_VIEW_TITLE, outcome: 'created' },
      ]);
      const views = await viewsOf(account);
      expect(views.map((v) => v.title).sort()).toEqual(
        [ACTION_NEEDED_VIEW_TITLE, APPROVALS_VIEW_TITLE].sort(),
      );
      expect(views.find((v) => v.id === approvalsId)?.conditions.all).toHaveLength(2);
      expect(rerun.views?.[0]).toBe(approvalsId);
      expect(
        (await runSetup({ ...account.input, existing: existingFrom(rerun) })).steps
          .filter((s) => s.step === 'view')
          .map((s) => s.outcome),
      ).toEqual(['found', 'found']);
    });

    it("never takes an admin's views of the same titles for its own: they are left as they are, by setup and by turning the views off", async () => {
      const account = newAccount();
      // the admin made views with setup's titles first (and a duplicate), before any setup ran
      const adminViews: { id: number }[] = [];
      for (const title of [
        APPROVALS_VIEW_TITLE,
        ACTION_NEEDED_VIEW_TITLE,
        ACTION_NEEDED_VIEW_TITLE,
      ])
        adminViews.push(
          await account.zendesk.views.create({
            title,
            description: 'Our own queue',
            all: [{ field: 'status', operator: 'is', value: 'open' }],
          }),
        );
      const snapshot = async () =>
        (await viewsOf(account))
          .filter((view) => adminViews.some((mine) => mine.id === view.id))
          .map((view) => ({ id: view.id, title: view.title, conditions: view.conditions }));
      const before = await snapshot();
      expect(before).toHaveLength(3);

      const first = await runSetup(account.input);
      const viewSteps = first.steps.filter((step) => step.step === 'view');
      expect(viewSteps.map((step) => step.outcome)).toEqual(['created', 'created']);
      expect(viewSteps[0]!.message).toContain(`view ${adminViews[0]!.id}`);
      expect(viewSteps[1]!.message).toContain(`view ${adminViews[2]!.id}`);
      expect(first.views!.some((id) => adminViews.some((mine) => mine.id === id))).toBe(false);
      expect(await snapshot()).toEqual(before);

      // a rerun finds setup's own by their stored ids, and still leaves the admin's alone
      const rerun = await runSetup({ ...account.input, existing: existingFrom(first) });
      expect(outcomes(rerun.steps, 'view')).toEqual(['found', 'found']);
      expect(rerun.views).toEqual(first.views);
      // with the stored ids lost, setup's own are known by their mark, never the admin's by title
      const lost = await runSetup(account.input);
      expect(outcomes(lost.steps, 'view')).toEqual(['found', 'found']);
      expect(lost.views).toEqual(first.views);

      const off = await runSetup({
        ...account.input,
        createQueueViews: false,
        existing: existingFrom(first),
      });
      expect(off.views).toEqual([]);
      expect(await snapshot()).toEqual(before);
      expect((await viewsOf(account)).map((view) => view.id).sort()).toEqual(
        adminViews.map((view) => view.id).sort(),
      );
    });

    it('turned off: none is created, and the ones setup made are deleted', async () => {
      const off = newAccount();
      const none = await runSetup({ ...off.input, createQueueViews: false });
      expect(none.views).toEqual([]);
      expect(await viewsOf(off)).toEqual([]);

      const account = newAccount();
      const first = await runSetup(account.input);
      const mine = await account.zendesk.views.create({
        title: 'Our own view',
        all: [{ field: 'status', operator: 'is', value: 'open' }],
      });
      const rerun = await runSetup({
        ...account.input,
        createQueueViews: false,
        existing: existingFrom(first),
      });
      expect(outcomes(rerun.steps, 'view')).toEqual(['removed', 'removed']);
      expect(rerun.views).toEqual([]);
      expect((await viewsOf(account)).map((v) => v.id)).toEqual([mine.id]);
    });

    it('are skipped when the Incident Status field could not be set up', async () => {
      const account = newAccount();
      await control('/_sandbox/faults', 'POST', {
        path: '/api/v2/ticket_fields*',
        method: 'GET',
        kind: 'error',
        status: 500,
        subdomain: account.subdomain,
        times: 1,
      });
      const result = await runSetup(account.input);
      expect(result.steps.filter((s) => s.step === 'view')).toEqual([
        {
          step: 'view',
          target: 'all views',
          outcome: 'skipped',
          message: 'the Incident Status field is missing',
        },
      ]);
      expect(result.views).toBeNull();
    });
  });
});
