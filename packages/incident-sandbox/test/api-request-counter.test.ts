import { describe, expect, it } from 'vitest';
import { endpointOf } from '../src/http/api-request-counter';
import { startSandbox } from './helpers';

describe('API request counter (/_sandbox/api-requests)', () => {
  it('counts each service API request by endpoint, ids folded, control calls left out', async () => {
    const h = await startSandbox();
    const id = (await h.api('/v1/incidents?clientId=cl_demo_parent')).body.data[0].id;
    await h.api(`/v1/incident/${id}`);
    await h.api(`/v1/incident/${id}/snapshots`);
    await h.api(`/v1/incident/${id}/snapshots`);
    await h.api(`/v1/incidents/resolutions?search=${id}`);
    await h.control('GET', `/incidents/${id}`);
    expect((await h.control('GET', '/api-requests')).body).toEqual({
      total: 5,
      by_endpoint: {
        'GET /v1/incident/{id}': 1,
        'GET /v1/incident/{id}/snapshots': 2,
        'GET /v1/incidents': 1,
        'GET /v1/incidents/resolutions': 1,
      },
    });
  });

  it('counts refused and faulted requests too, and starts again on DELETE', async () => {
    const h = await startSandbox();
    await h.control('POST', '/faults', { path: '/v1/incidents', kind: 'status', times: 1 });
    expect((await h.api('/v1/incidents')).status).toBe(503);
    expect((await h.api('/v1/incidents', { key: null })).status).toBe(401);
    expect((await h.api('/v1/nothing-here')).status).toBe(404);
    expect((await h.control('GET', '/api-requests')).body).toEqual({
      total: 3,
      by_endpoint: { 'GET /v1/incidents': 2, 'GET /v1/nothing-here': 1 },
    });
    expect((await h.control('DELETE', '/api-requests')).status).toBe(204);
    expect((await h.control('GET', '/api-requests')).body).toEqual({ total: 0, by_endpoint: {} });
  });

  it('folds every id and subject the service API takes in a path', () => {
    expect(endpointOf('POST', '/v1/incident/tkd')).toBe('POST /v1/incident/tkd');
    expect(endpointOf('POST', '/v1/incident/inc_1/comment')).toBe('POST /v1/incident/{id}/comment');
    expect(endpointOf('GET', '/v1/incident/resolutions')).toBe('GET /v1/incident/resolutions');
    expect(endpointOf('GET', '/v1/incident/subject/example.test')).toBe(
      'GET /v1/incident/subject/{subject}',
    );
    expect(endpointOf('GET', '/v1/documents/doc_1/signed-url')).toBe(
      'GET /v1/documents/{id}/signed-url',
    );
    expect(endpointOf('POST', '/v1/webhooks/wh_1/rotate')).toBe('POST /v1/webhooks/{id}/rotate');
  });
});
