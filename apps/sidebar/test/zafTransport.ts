// Tests: the connector's answers come from a fake ZAF client's request handler, as they did when
// the sidebar called the connector through the ZAF proxy; the production transport (same-origin
// fetch with the page's session) is tested in pageTransport.test.ts.
import type { ConnectorTransport } from '../src/app/api/transport';
import type { ZafClient, ZafCompleteResponse, ZafFailedResponse } from '../src/app/zaf/zafClient';

export const TEST_CONNECTOR = 'https://connector.example.test';

export function zafTransport(client: ZafClient): ConnectorTransport {
  return async (request) => {
    const asResponse = (r: ZafCompleteResponse | ZafFailedResponse) => ({
      status: r.status ?? 0,
      responseText:
        r.responseText ?? (r.responseJSON === undefined ? '' : JSON.stringify(r.responseJSON)),
      headers: r.headers ?? {},
    });
    try {
      const response = (await client.request({
        url: `${TEST_CONNECTOR}${request.path}`,
        type: request.method,
        httpCompleteResponse: true,
        timeout: request.timeoutMs,
        ...(request.body === undefined
          ? {}
          : { contentType: 'application/json', data: request.body }),
      })) as ZafCompleteResponse;
      return asResponse(response);
    } catch (failure) {
      const failed = failure as ZafFailedResponse;
      if (failed && typeof failed.status === 'number' && failed.status > 0)
        return asResponse(failed);
      throw failure;
    }
  };
}

/** Makes the app's connector calls (as loaded now) go to each test's fake client. */
export async function useZafTransport(): Promise<void> {
  const { setConnectorTransportFactory } = await import('../src/app/api/transport');
  setConnectorTransportFactory(zafTransport);
}
