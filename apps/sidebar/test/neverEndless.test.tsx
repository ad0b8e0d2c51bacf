// Every error is shown with a retry, never an endless "Loading" — also when
// Zendesk never answers a get or a request, and when the get fails.
import { describe, expect, it } from 'vitest';
import { act, screen } from '@testing-library/react';
import { zafTransport } from './zafTransport';
import { createConnectorApi } from '../src/app/api/connector';
import { getSessionFacts } from '../src/app/zaf/sessionFacts';
import { clientServing, renderSidebar } from './render';
import { createFakeZafClient } from './fakeZafClient';
import { linkedView } from './fixtures';

describe('a host that never answers', () => {
  it('turns an unanswered connector request into a network error after its timeout', async () => {
    const client = createFakeZafClient({ handler: () => 'hang' });
    const api = createConnectorApi(zafTransport(client), { timeoutMs: 30, answerGraceMs: 20 });
    const started = Date.now();
    const result = await api.getTicketView(42);
    expect(result).toEqual({ ok: false, error: { kind: 'network' } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    // the timeout itself is still passed to the transport
    expect(client.requests[0]!.timeout).toBe(30);
  });

  it('turns an unanswered get into an error, and asks again next time', async () => {
    const client = createFakeZafClient();
    const answer = client.get.bind(client);
    client.get = () => new Promise(() => {});
    await expect(getSessionFacts(client, 20)).rejects.toThrow('Zendesk did not answer');
    client.get = answer;
    await expect(getSessionFacts(client, 20)).resolves.toMatchObject({ 'ticket.id': 42 });
  });
});

describe('a failed get', () => {
  it('shows that Zendesk could not be read, with a retry that loads the view', async () => {
    const client = clientServing(linkedView());
    const answer = client.get.bind(client);
    // the translations ask first (and fall back to English), then the session
    let failures = 2;
    client.get = (paths) => {
      if (failures > 0) {
        failures -= 1;
        return Promise.reject(new Error('host error'));
      }
      return answer(paths);
    };
    renderSidebar(client);
    expect(
      await screen.findByText('Could not read the ticket or your profile from Zendesk.'),
    ).toBeTruthy();
    act(() => screen.getByRole('button', { name: 'Retry' }).click());
    await screen.findByTestId('state-linked');
  });
});
