// The file-backed mode `npm start` uses: everything the sandbox holds survives a stop and a start,
// ids go on from where they were, an unusable file is set aside, one file has one sandbox.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StateFileLockedError } from '@incident-desk/state-file';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createZendeskSandbox,
  readZendeskSandboxStateFile,
  seedDemo,
  type ZendeskSandbox,
  type ZendeskSandboxOptions,
} from '../src/index';
import { snapshotOf } from '../src/state/state-file-format';
import { call, startReceiver } from './support';

let dir: string;
let stateFile: string;
const open: ZendeskSandbox[] = [];
const receivers: { close(): Promise<void> }[] = [];

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'zendesk-sandbox-state-'));
  stateFile = path.join(dir, 'zendesk.json');
});
afterEach(async () => {
  // closed before the folder goes: a close writes the file a last time
  while (open.length) await open.pop()?.close();
  while (receivers.length) await receivers.pop()?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function start(options: ZendeskSandboxOptions = {}) {
  const sandbox = createZendeskSandbox({
    stateFile,
    globalClients: [{ identifier: 'integration', secret: 's3cret', redirect_uris: [] }],
    webhooks: { retryDelaysMs: [5, 5, 5], timeoutMs: 2_000 },
    ...options,
  });
  open.push(sandbox);
  if (!sandbox.state.account('demo')) seedDemo(sandbox);
  const { url } = await sandbox.listen(0);
  return { sandbox, url, api: (p: string) => `${url}/_z/demo/api/v2/${p}` };
}

/** A webhook and a trigger: a ticket tagged `hook` is delivered to the receiver. */
async function hookUp(api: (p: string) => string, token: string, endpoint: string) {
  const webhook = await call(api('webhooks'), {
    token,
    body: {
      webhook: {
        name: 'connector',
        endpoint,
        http_method: 'POST',
        request_format: 'json',
        status: 'active',
        subscriptions: ['conditional_ticket_events'],
      },
    },
  });
  expect(webhook.status).toBe(201);
  const trigger = await call(api('triggers.json'), {
    token,
    body: {
      trigger: {
        title: 'Hook',
        conditions: { all: [{ field: 'current_tags', operator: 'includes', value: 'hook' }] },
        actions: [
          {
            field: 'notification_webhook',
            value: [webhook.body.webhook.id, '{"ticketId":{{ticket.id}}}'],
          },
        ],
      },
    },
  });
  expect(trigger.status).toBe(201);
}

const invocationIds = (received: { headers: Record<string, unknown> }[]) =>
  received.map((r) => String(r.headers['x-zendesk-webhook-invocation-id']));

describe('the state file', () => {
  it('keeps accounts, tickets, attachments, tokens, webhooks and app keys; ids never repeat', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const first = await start();
    expect(first.sandbox.stateFile).toEqual({ kind: 'created', file: stateFile });
    const admin = first.sandbox.state.account('demo')!.users.values().next().value!;
    const token = first.sandbox.issueToken('demo', admin.id, ['read', 'write'], 86_400);
    await hookUp(first.api, token, receiver.url);
    const upload = await fetch(`${first.api('uploads.json')}?filename=evidence.txt`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body: 'the reported message',
    });
    const uploadToken = ((await upload.json()) as { upload: { token: string } }).upload.token;
    const created = await call(first.api('tickets.json'), {
      token,
      headers: { 'Idempotency-Key': 'create-once' },
      body: {
        ticket: {
          subject: 'Before the restart',
          tags: ['hook'],
          comment: { body: 'with evidence', uploads: [uploadToken] },
          metadata: { kept: 'on the audit' },
        },
      },
    });
    expect(created.status).toBe(201);
    first.sandbox.state.account('demo')!.defaultLocale = 'fr';
    const ticketBefore = created.body.ticket.id as number;
    const installation = first.sandbox.state.apps.install('demo', 1);
    const publicKey = first.sandbox.state.apps.keyOf(1).publicKeyPem;
    await first.sandbox.webhooksIdle();
    expect(receiver.received).toHaveLength(1);
    const savedBefore = JSON.stringify(snapshotOf(first.sandbox.state));
    await first.sandbox.close();

    const second = await start();
    expect(second.sandbox.stateFile).toEqual({ kind: 'loaded', file: stateFile });
    // everything came back as it was
    expect(JSON.stringify(snapshotOf(second.sandbox.state))).toBe(savedBefore);
    expect(second.sandbox.state.apps.install('demo', 1)).toBe(installation);
    expect(second.sandbox.state.apps.keyOf(1).publicKeyPem).toBe(publicKey);
    const comments = await call(second.api(`tickets/${ticketBefore}/comments.json`), { token });
    expect(comments.status).toBe(200); // the token issued before the restart still works
    const attachment = comments.body.comments[0].attachments[0];
    expect(await (await fetch(attachment.content_url)).text()).toBe('the reported message');
    const audits = await call(second.api(`tickets/${ticketBefore}/audits.json`), { token });
    expect(audits.body.audits[0].metadata.custom).toEqual({ kept: 'on the audit' });
    expect(second.sandbox.state.account('demo')!.defaultLocale).toBe('fr');
    const again = await call(second.api('tickets.json'), {
      token,
      headers: { 'Idempotency-Key': 'create-once' },
      body: { ticket: { subject: 'Before the restart', comment: { body: 'with evidence' } } },
    });
    expect(again.headers.get('x-idempotency-lookup')).toBe('hit');
    expect(again.body.ticket.id).toBe(ticketBefore);

    const after = await call(second.api('tickets.json'), {
      token,
      body: { ticket: { subject: 'After the restart', tags: ['hook'], comment: { body: 'new' } } },
    });
    expect(after.body.ticket.id).toBe(ticketBefore + 1);
    const afterComments = await call(second.api(`tickets/${after.body.ticket.id}/comments.json`), {
      token,
    });
    expect(afterComments.body.comments[0].id).toBeGreaterThan(comments.body.comments[0].id);
    await second.sandbox.webhooksIdle();
    expect(receiver.received).toHaveLength(2);
    const [one, two] = invocationIds(receiver.received);
    expect(two).not.toBe(one);
  });

  it('sends again a delivery the stop left pending, under its invocation id', async () => {
    // a receiver that never answers its first request: the sandbox stops with it in flight
    const seen: string[] = [];
    const receiver = createServer((req, res) => {
      seen.push(String(req.headers['x-zendesk-webhook-invocation-id']));
      req.resume();
      if (seen.length > 1) res.writeHead(200).end('{}');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receivers.push({
      close: () =>
        new Promise<void>((resolve) => {
          receiver.closeAllConnections();
          receiver.close(() => resolve());
        }),
    });
    const endpoint = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const first = await start();
    const admin = first.sandbox.state.account('demo')!.users.values().next().value!;
    const token = first.sandbox.issueToken('demo', admin.id);
    await hookUp(first.api, token, endpoint);
    await call(first.api('tickets/1.json'), {
      method: 'PUT',
      token,
      body: { ticket: { additional_tags: ['hook'] } },
    });
    while (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await first.sandbox.close();

    const second = await start();
    await second.sandbox.webhooksIdle();
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBe(seen[0]);
    expect(second.sandbox.state.account('demo')!.deliveries.map((d) => d.state)).toEqual([
      'succeeded',
    ]);
  });

  it('fails a background job the stop interrupted, as its status then says', async () => {
    const first = await start({ jobs: { startDelayMs: 60_000, itemDelayMs: 1 } });
    const admin = first.sandbox.state.account('demo')!.users.values().next().value!;
    const token = first.sandbox.issueToken('demo', admin.id);
    const queued = await call(first.api('tickets/update_many.json?ids=1,2'), {
      method: 'PUT',
      token,
      body: { ticket: { additional_tags: ['bulk'] } },
    });
    const jobId = queued.body.job_status.id as string;
    await first.sandbox.close();

    const second = await start();
    const status = await call(second.api(`job_statuses/${jobId}.json`), { token });
    expect(status.body.job_status).toMatchObject({
      status: 'failed',
      message: 'The sandbox stopped while the job ran',
    });
  });

  it('sets an unusable file aside and starts empty', async () => {
    writeFileSync(stateFile, '{"format":"zendesk-sandbox-state","version":1,"nextId":');
    const sandbox = createZendeskSandbox({ stateFile });
    open.push(sandbox);
    const outcome = sandbox.stateFile;
    expect(outcome).toMatchObject({ kind: 'set-aside', file: stateFile });
    if (outcome?.kind !== 'set-aside') return;
    expect(outcome.reason).toMatch(/not JSON/);
    expect(readFileSync(outcome.asidePath, 'utf8')).toContain('zendesk-sandbox-state');
    expect(sandbox.state.accounts.size).toBe(0);
  });

  it('names another format or version as the reason', () => {
    writeFileSync(stateFile, JSON.stringify({ version: 1 }));
    expect(readZendeskSandboxStateFile(stateFile)).toMatchObject({
      kind: 'unusable',
      reason: 'not a Zendesk sandbox state (format is not "zendesk-sandbox-state")',
    });
    writeFileSync(stateFile, JSON.stringify({ format: 'zendesk-sandbox-state', version: 7 }));
    expect(readZendeskSandboxStateFile(stateFile)).toMatchObject({
      kind: 'unusable',
      reason: 'state version 7; this sandbox reads version 1',
    });
  });

  it('is written shortly after a change, not only on close', async () => {
    const { sandbox, api } = await start({ saveDelayMs: 10 });
    sandbox.flushState();
    const admin = sandbox.state.account('demo')!.users.values().next().value!;
    const created = await call(api('tickets.json'), {
      token: sandbox.issueToken('demo', admin.id),
      body: { ticket: { subject: 'Written soon', comment: { body: 'soon' } } },
    });
    // minutes, not seconds: a loaded machine is slow, not wrong
    for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
      const read = readZendeskSandboxStateFile(stateFile);
      const demo = read.kind === 'loaded' ? read.state.accounts[0] : undefined;
      if (demo?.tickets.some((t) => t.id === created.body.ticket.id)) return;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the new ticket never reached the file');
  });

  it('belongs to one sandbox at a time; in memory without the option', async () => {
    const first = await start();
    expect(() => createZendeskSandbox({ stateFile })).toThrow(StateFileLockedError);
    await first.sandbox.close();
    open.push(createZendeskSandbox({ stateFile }));
    expect(createZendeskSandbox().stateFile).toBeNull();
  });
});
