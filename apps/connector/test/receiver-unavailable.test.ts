// While the database cannot be reached (PostgreSQL restarting), both receivers answer 503 with
// Retry-After: Zendesk retries a webhook only on 409, or on 429/503 that carry it.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '@incident-desk/incident-api';
import { signZendeskWebhook } from '@incident-desk/zendesk-api';
import { errorHandler } from '../src/http/app-error';
import { incidentWebhookRouter } from '../src/http/incident-webhook';
import { ticketingWebhookRouter } from '../src/http/ticketing-webhook';
import type { Inbox } from '../src/ingest/inbox';

const ACCOUNT = '00000000-0000-4000-8000-000000000001';
const SECRET = 'whsec_current';
const databaseDown = () =>
  Promise.reject(new Error('terminating connection due to administrator command'));

describe('receivers while the database is unavailable', () => {
  let baseUrl: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const inbox: Inbox = { accept: databaseDown };
    const app = express();
    app.use(
      incidentWebhookRouter({
        inbox,
        subscriptions: {
          find: (id) =>
            id === 'sub-down'
              ? databaseDown()
              : Promise.resolve({ accountId: ACCOUNT, secrets: [SECRET] }),
        },
      }),
    );
    app.use(
      ticketingWebhookRouter({
        inbox,
        accounts: {
          find: (id) =>
            id === 'down'
              ? databaseDown()
              : Promise.resolve({ accountId: ACCOUNT, secrets: [SECRET] }),
        },
      }),
    );
    app.use(errorHandler);
    const server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((resolve) => server.close(() => resolve()));
  });

  afterAll(() => close());

  const incidentBody = JSON.stringify({
    id: 'evt_1',
    event: 'incident.status_changed',
    data: { incidentId: 'inc_1', status: 'monitoring' },
  });
  const postIncident = (subscription: string) =>
    fetch(`${baseUrl}/webhooks/incident?subscription=${subscription}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signWebhook({ secret: SECRET, body: incidentBody }),
      },
      body: incidentBody,
    });

  const ticketBody = JSON.stringify({ kind: 'report', ticketId: 7, mode: 'takedown' });
  const postTicket = (account: string) =>
    fetch(`${baseUrl}/ticketing/webhook?account=${account}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signZendeskWebhook({ secret: SECRET, rawBody: ticketBody }).headers,
      },
      body: ticketBody,
    });

  async function expectRetryLater(response: Response) {
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await response.json()).toMatchObject({ error: { code: 'unavailable' } });
  }

  it('incident events: a failed subscription lookup and a failed durable write', async () => {
    await expectRetryLater(await postIncident('sub-down'));
    await expectRetryLater(await postIncident('sub-1'));
  });

  it('Zendesk deliveries: a failed account lookup and a failed durable write', async () => {
    await expectRetryLater(await postTicket('down'));
    await expectRetryLater(await postTicket(ACCOUNT));
  });
});
