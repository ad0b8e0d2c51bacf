// The demo survives its second start, as `npm start` runs it: both sandboxes keep their state in
// files and the connector its PGlite folder, all in one data directory. The loop (a ticket's
// threat reported by tag, an analyst's move back as a note) is played, everything stops as
// Ctrl-C stops it (the connector first, then the sandboxes), starts again on the same directory
// and ports, and the loop is played on new tickets: nothing the sandboxes send is dropped as a
// duplicate of the first run, nothing goes to reconciliation.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncidentSandbox } from '@incident-desk/incident-sandbox';
import type { ZendeskSandbox } from '@incident-desk/zendesk-sandbox';
import { createConnector, type Connector } from '../src/app';
import {
  demoConfig,
  json,
  runDemoOn,
  sidebarStandIn,
  startDemoSandboxes,
} from './support/demo-stack';
import { eventually } from './support/eventually';
import { testConnectorDatabase } from './support/test-database';

interface Verdict {
  source: 'zendesk' | 'incident';
  body: string;
  status: string;
}

interface Stack {
  incident: IncidentSandbox;
  zendesk: ZendeskSandbox;
  connector: Connector;
  incidentUrl: string;
  zendeskUrl: string;
  ports: { incident: number; zendesk: number; connector: number };
}

const portOf = (url: string) => Number(new URL(url).port);

describe('the demo stopped and started again on the same data directory', () => {
  let dir: string;
  let stack: Stack | undefined;
  let databaseEnv: Record<string, string>;
  const verdicts: Verdict[] = [];

  /** fetch for webhook deliveries that notes the connector's verdict (accepted or duplicate). */
  const recordingFetch =
    (source: Verdict['source']): typeof fetch =>
    async (input, init) => {
      const response = await fetch(input, init);
      void response
        .clone()
        .json()
        .then((json: unknown) => {
          const answer = json as { status?: unknown };
          verdicts.push({
            source,
            body: String(init?.body),
            status: String(answer.status ?? `${response.status} ${JSON.stringify(answer)}`),
          });
        })
        .catch(() => undefined);
      return response;
    };

  async function start(ports?: Stack['ports']): Promise<Stack> {
    const sandboxes = await startDemoSandboxes({ stateDir: dir, fetchOf: recordingFetch, ports });
    const { incident, zendesk, incidentUrl, zendeskUrl } = sandboxes;
    const config = demoConfig(sandboxes, dir, databaseEnv);
    const connector = await createConnector(config, {
      log: () => undefined,
      sidebarDistDir: sidebarStandIn(dir),
    });
    const connectorUrl = (await connector.listen(ports?.connector ?? 0)).url;
    const demo = await runDemoOn(connector, config, connectorUrl);
    expect(demo.setup.ok).toBe(true);
    return {
      incident,
      zendesk,
      connector,
      incidentUrl,
      zendeskUrl,
      ports: {
        incident: portOf(incidentUrl),
        zendesk: portOf(zendeskUrl),
        connector: portOf(connectorUrl),
      },
    };
  }

  /** As Ctrl-C under `npm start`: the connector first, then each sandbox writes its state. */
  async function stop(running: Stack): Promise<void> {
    await running.connector.close();
    await running.zendesk.close();
    await running.incident.close();
  }

  /** Every delivery the sandboxes meant to send has been answered. */
  async function settle(running: Stack): Promise<void> {
    await running.zendesk.webhooksIdle();
    await running.incident.idle();
    await running.zendesk.webhooksIdle();
  }

  /** A new ticket, its threat reported by tag, linked; an analyst's move comes back as a note. */
  async function playTheLoop(running: Stack, round: number) {
    const { zendesk, zendeskUrl, incidentUrl } = running;
    const account = zendesk.state.account('demo')!;
    const agent = [...account.users.values()].find((u) => u.role === 'agent')!;
    const field = (title: string) =>
      [...account.ticketFields.values()].find((f) => f.title === title)!.id;
    const token = zendesk.issueToken('demo', agent.id, ['read', 'write']);
    const earlier = verdicts.length;
    const zendeskApi = (p: string, init: RequestInit = {}) =>
      json(`${zendeskUrl}/_z/demo/api/v2/${p}`, {
        ...init,
        headers: { authorization: `Bearer ${token}` },
      });
    const created = (await zendeskApi('tickets.json', {
      method: 'POST',
      body: JSON.stringify({
        ticket: {
          subject: `Phishing report, round ${round}`,
          comment: { body: 'A customer forwarded a suspicious login page.' },
        },
      }),
    })) as { ticket: { id: number } };
    const ticketId = created.ticket.id;
    await zendeskApi(`tickets/${ticketId}.json`, {
      method: 'PUT',
      body: JSON.stringify({
        ticket: {
          custom_fields: [
            { id: field('Threat URL'), value: `https://login-${round}.restart-phish.test/` },
          ],
          additional_tags: ['incident_submit'],
        },
      }),
    });

    // the report's delivery is taken as new, not dropped as a repeat of the first run's
    const report = await eventually('the connector to answer the report delivery', async () =>
      verdicts.slice(earlier).find((v) => {
        if (v.source !== 'zendesk') return false;
        const body = JSON.parse(v.body) as { kind?: string; ticketId?: unknown };
        return body.kind === 'report' && Number(body.ticketId) === ticketId;
      }),
    );
    expect(report.status).toBe('accepted');

    const ticket = () =>
      json(`${zendeskUrl}/_sandbox/accounts/demo/tickets/${ticketId}`) as Promise<{
        ticket: { tags: string[]; custom_fields: { id: number; value: unknown }[] };
        comments: { public: boolean; body: string }[];
      }>;
    const incidentId = await eventually('the ticket linked to its incident', async () => {
      const current = await ticket();
      const value = current.ticket.custom_fields.find((f) => f.id === field('Incident ID'))?.value;
      return current.ticket.tags.includes('incident_linked') && typeof value === 'string' && value
        ? value
        : undefined;
    });

    const notesBefore = (await ticket()).comments.filter((c) => !c.public).length;
    const record = await json(
      `${incidentUrl}/_sandbox/incidents/${encodeURIComponent(incidentId)}`,
    );
    await json(`${incidentUrl}/_sandbox/incidents/${String(record.id)}/advance`, {
      method: 'POST',
      body: JSON.stringify({ status: 'case_building', message: `Analyst on round ${round}.` }),
    });
    await eventually('the analyst move as an internal note', async () => {
      const notes = (await ticket()).comments.filter((c) => !c.public);
      return notes.length > notesBefore && notes.some((n) => n.body.includes(`round ${round}`))
        ? true
        : undefined;
    });
    // its events were taken as new, not as repeats of the first run's event ids
    const events = verdicts
      .slice(earlier)
      .filter((v) => v.source === 'incident' && v.body.includes(String(record.id)));
    expect(events.length).toBeGreaterThan(0);
    expect(events.map((v) => v.status)).toEqual(events.map(() => 'accepted'));
    return { ticketId, incidentId };
  }

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'incident-desk-demo-restart-'));
    databaseEnv = testConnectorDatabase('pglite', dir, 'demo_restart').env;
  });

  afterAll(async () => {
    if (stack) await stop(stack).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('links new tickets and brings analyst moves back after a restart', async () => {
    stack = await start();
    expect(stack.zendesk.stateFile?.kind).toBe('created');
    const first = await playTheLoop(stack, 1);
    await settle(stack);
    const ports = stack.ports;
    await stop(stack);
    stack = undefined;

    stack = await start(ports);
    expect(stack.zendesk.stateFile?.kind).toBe('loaded');
    expect(stack.incident.dataFile?.kind).toBe('loaded');
    const second = await playTheLoop(stack, 2);
    await settle(stack);

    expect(second.ticketId).toBeGreaterThan(first.ticketId);
    expect(second.incidentId).not.toBe(first.incidentId);
    expect(verdicts.filter((v) => v.status === 'duplicate')).toEqual([]);
    const db = stack.connector.db.prisma;
    expect(await db.reconciliationEntry.count()).toBe(0);
    expect(await db.incidentLink.count()).toBe(2);
  });
});
