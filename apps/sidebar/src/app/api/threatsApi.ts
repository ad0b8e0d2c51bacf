// The sidebar's calls for issue 18 (SIDEBAR_API.md, "Threats found in the ticket" and
// "Duplicates"): the threats the connector finds in this ticket, whether one is already an incident
// of the account, and the two actions on one. Answers are checked before use; every value in them
// is attacker-controlled and is shown only as text, in its defanged form.
import type { TFoundThreat, TThreatKind, TThreatPlace } from '@incident-desk/threat-text';
import { toConnectorError, type ConnectorResult } from './connectorErrors';
import type { TActionAck, TReportMode } from './sidebarContract';
import type { ConnectorTransport } from './transport';

// The connector answers with the extractor's own shapes (packages/threat-text).
export type { TFoundThreat, TThreatKind, TThreatPlace };

export interface TThreatDuplicates {
  value: string;
  display: string;
  linked: { incidentId: string; ticketId: number }[];
  service:
    | {
        state: 'searched';
        incidents: { incidentId: string; display: string; linkedTicketId: number | null }[];
      }
    | { state: 'not_enabled' }
    | { state: 'unavailable' };
}

export interface ThreatsApi {
  listThreats(ticketId: number): Promise<ConnectorResult<TFoundThreat[]>>;
  findDuplicates(ticketId: number, value: string): Promise<ConnectorResult<TThreatDuplicates>>;
  reportFoundThreat(
    ticketId: number,
    value: string,
    mode: TReportMode,
  ): Promise<ConnectorResult<TActionAck>>;
  linkExisting(ticketId: number, value: string): Promise<ConnectorResult<TActionAck>>;
}

const KINDS = new Set(['url', 'domain', 'email', 'phone', 'ipv4']);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

function parsePlace(raw: unknown): TThreatPlace | null {
  if (!isObject(raw)) return null;
  if (raw.in === 'subject') return { in: 'subject' };
  if (raw.in !== 'comment' || typeof raw.index !== 'number') return null;
  return {
    in: 'comment',
    commentId: typeof raw.commentId === 'number' ? raw.commentId : 0,
    index: raw.index,
    public: raw.public === true,
    author: typeof raw.author === 'string' ? raw.author : 'end-user',
  };
}

function parseThreats(raw: unknown): TFoundThreat[] | null {
  if (!isObject(raw) || !Array.isArray(raw.threats)) return null;
  const threats: TFoundThreat[] = [];
  for (const item of raw.threats) {
    if (!isObject(item) || typeof item.value !== 'string' || typeof item.display !== 'string')
      continue;
    if (typeof item.kind !== 'string' || !KINDS.has(item.kind)) continue;
    const seenIn = Array.isArray(item.seenIn)
      ? item.seenIn.map(parsePlace).filter((p): p is TThreatPlace => p !== null)
      : [];
    threats.push({
      value: item.value,
      kind: item.kind as TThreatKind,
      display: item.display,
      seenIn,
    });
  }
  return threats;
}

function parseDuplicates(raw: unknown): TThreatDuplicates | null {
  if (!isObject(raw) || typeof raw.value !== 'string' || typeof raw.display !== 'string')
    return null;
  const linked = Array.isArray(raw.linked)
    ? raw.linked.filter(
        (l): l is { incidentId: string; ticketId: number } =>
          isObject(l) && typeof l.incidentId === 'string' && typeof l.ticketId === 'number',
      )
    : [];
  const service = isObject(raw.service) ? raw.service : {};
  let parsedService: TThreatDuplicates['service'] = { state: 'unavailable' };
  if (service.state === 'not_enabled') parsedService = { state: 'not_enabled' };
  if (service.state === 'searched' && Array.isArray(service.incidents))
    parsedService = {
      state: 'searched',
      incidents: service.incidents
        .filter(
          (i): i is Record<string, unknown> =>
            isObject(i) && typeof i.incidentId === 'string' && typeof i.display === 'string',
        )
        .map((i) => ({
          incidentId: i.incidentId as string,
          display: i.display as string,
          linkedTicketId: typeof i.linkedTicketId === 'number' ? i.linkedTicketId : null,
        })),
    };
  return { value: raw.value, display: raw.display, linked, service: parsedService };
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

  const ack = (result: ConnectorResult<unknown>): ConnectorResult<TActionAck> =>
    parsed(result, (raw) =>
      isObject(raw) && typeof raw.message === 'string' ? { message: raw.message } : {},
    );
  const ticket = (id: number) => `/sidebar/tickets/${encodeURIComponent(String(id))}`;

  return {
    async listThreats(ticketId) {
      return parsed(await call('GET', `${ticket(ticketId)}/threats`), parseThreats);
    },
    async findDuplicates(ticketId, value) {
      const query = `?value=${encodeURIComponent(value)}`;
      return parsed(await call('GET', `${ticket(ticketId)}/duplicates${query}`), parseDuplicates);
    },
    async reportFoundThreat(ticketId, value, mode) {
      return ack(await call('POST', `${ticket(ticketId)}/threats/report`, { value, mode }));
    },
    async linkExisting(ticketId, value) {
      return ack(await call('POST', `${ticket(ticketId)}/link-existing`, { value }));
    },
  };
}
