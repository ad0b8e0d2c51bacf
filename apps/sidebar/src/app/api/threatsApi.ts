// The sidebar's calls for threats found in a ticket (SIDEBAR_API.md, "Threats found in the ticket" and
// "Duplicates"): the threats the connector finds in this ticket, whether one is already an incident
// of the account, and the two actions on one. Answers are checked before use; every value in them
// is attacker-controlled and is shown only as text, in its defanged form.
import type {
  TActionAck,
  FoundThreat,
  TReportMode,
  TThreatDuplicates,
} from '@incident-desk/sidebar-contract';
import type { TThreatKind, TThreatPlace } from '@incident-desk/threat-text';
import { parseActionAck, parseFoundThreats, parseThreatDuplicates } from './answers';
import { toConnectorError, type ConnectorResult } from './connectorErrors';
import type { ConnectorTransport } from './transport';

// The connector answers with the extractor's own shapes (packages/threat-text).
export type { FoundThreat, TThreatDuplicates, TThreatKind, TThreatPlace };

export interface ThreatsApi {
  listThreats(ticketId: number): Promise<ConnectorResult<FoundThreat[]>>;
  findDuplicates(ticketId: number, value: string): Promise<ConnectorResult<TThreatDuplicates>>;
  reportFoundThreat(
    ticketId: number,
    value: string,
    mode: TReportMode,
  ): Promise<ConnectorResult<TActionAck>>;
  linkExisting(ticketId: number, value: string): Promise<ConnectorResult<TActionAck>>;
}

const TIMEOUT_MS = 15_000;

export function createThreatsApi(transport: ConnectorTransport): ThreatsApi {
  async function call(
    method: 'GET' | 'POST',
    path: string,
    body?: Record<string, unknown>,
  ): Promise<ConnectorResult<unknown>> {
    try {
      const response = await transport({
        method,
        path,
        timeoutMs: TIMEOUT_MS,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      if (response.status < 200 || response.status >= 400)
        return { ok: false, error: toConnectorError(response) };
      return { ok: true, value: response.responseText ? JSON.parse(response.responseText) : {} };
    } catch (failure) {
      if (failure instanceof SyntaxError) return { ok: false, error: { kind: 'invalid_response' } };
      return { ok: false, error: toConnectorError(failure) };
    }
  }

  function parsed<T>(
    result: ConnectorResult<unknown>,
    parse: (raw: unknown) => T | null,
  ): ConnectorResult<T> {
    if (!result.ok) return result;
    const value = parse(result.value);
    return value === null
      ? { ok: false, error: { kind: 'invalid_response' } }
      : { ok: true, value };
  }

  const ack = (result: ConnectorResult<unknown>) => parsed(result, parseActionAck);
  const ticket = (id: number) => `/sidebar/tickets/${encodeURIComponent(String(id))}`;

  return {
    async listThreats(ticketId) {
      return parsed(await call('GET', `${ticket(ticketId)}/threats`), parseFoundThreats);
    },
    async findDuplicates(ticketId, value) {
      const query = `?value=${encodeURIComponent(value)}`;
      return parsed(
        await call('GET', `${ticket(ticketId)}/duplicates${query}`),
        parseThreatDuplicates,
      );
    },
    async reportFoundThreat(ticketId, value, mode) {
      return ack(await call('POST', `${ticket(ticketId)}/threats/report`, { value, mode }));
    },
    async linkExisting(ticketId, value) {
      return ack(await call('POST', `${ticket(ticketId)}/link-existing`, { value }));
    },
  };
}
