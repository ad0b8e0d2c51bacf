// AccountContextProvider from the database: each context carries a ZendeskClient whose tokens
// come from this account's credential row only, and incident clients limited to the account's
// own client and sub-clients.
import { querySql, type TDatabase } from '@incident-desk/db';
import {
  createIncidentClient,
  type IncidentCallObserver,
  type IncidentClient,
} from '@incident-desk/incident-api';
import { ZendeskClient, type ZendeskMarketplaceIdentity } from '@incident-desk/zendesk-api';
import type { TokenRefreshOutcome, ZendeskCall } from '../metrics';
import { secretBinding, type SecretBox } from '../secrets';
import {
  AccountUnavailableError,
  type AccountContext,
  type AccountContextProvider,
} from './account-context';
import { noteLocaleOf } from '../notes';
import { recordCredentialError } from './credential-store';
import { scopeSet } from './scopes';
import { zendeskBaseUrl, type TZendeskOAuthConfig } from './zendesk-oauth-config';
import { createZendeskTokenProvider } from './zendesk-token-provider';

export interface AccountContextProviderConfig {
  oauth: TZendeskOAuthConfig;
  marketplace?: ZendeskMarketplaceIdentity;
  now?: () => number;
  fetch?: typeof fetch;
  /** Passed to every ZendeskClient (timeouts, retries). */
  zendeskClientOptions?: {
    timeoutMs?: number;
    retry?: false;
    sleep?: (ms: number) => Promise<void>;
    /** Where attachments may come from besides the account's origin (ZENDESK_ATTACHMENT_HOSTS). */
    attachmentSources?: { hosts: readonly string[] };
  };
  incidentClientOptions?: { timeoutMs?: number; retry?: false };
  /** Told about every call to Zendesk and the incident service, and every token renewal (metrics). */
  observers?: {
    zendeskCall?: (call: ZendeskCall) => void;
    incidentCall?: IncidentCallObserver;
    tokenRefresh?: (outcome: TokenRefreshOutcome) => void;
  };
}

/**
 * The longest Retry-After a call waits out in place. A longer one fails the call at once: a job
 * hands its slot back for the delay (jobs/job-deferral.ts), the sidebar answers when to retry, so
 * no account's 429s hold a worker slot or a request.
 */
const INLINE_RETRY_AFTER_MAX_SECONDS = 3;

/**
 * The scope a 403 is about: named by the response when Zendesk does, else the one the endpoint
 * needs (Zendesk's 403 body usually names nothing; users endpoints need users:read).
 */
async function missingScopeOf(response: Response, url: string): Promise<string | undefined> {
  const header = response.headers.get('www-authenticate') ?? '';
  const fromHeader = /insufficient_scope/i.test(header)
    ? /scope="([^"]+)"/i.exec(header)?.[1]
    : undefined;
  if (fromHeader) return fromHeader;
  const text = await response
    .clone()
    .text()
    .catch(() => '');
  const fromBody = /\b([a-z_]+:(?:read|write))\b/i.exec(text)?.[1];
  if (fromBody) return fromBody;
  const pathname = new URL(url).pathname;
  if (/\/api\/v2\/apps(?:[/.?]|$)/.test(pathname)) return 'apps:read';
  return /\/api\/v2\/users(?:[/.?]|$)/.test(pathname) ? 'users:read' : undefined;
}

/** Notes a 403 that names a missing scope on the account, so admins see what to grant. */
function scopeWatchingFetch(
  base: typeof fetch,
  onMissingScope: (scope: string) => Promise<void>,
): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.status === 403) {
      const url = input instanceof Request ? input.url : String(input);
      const scope = await missingScopeOf(response, url);
      if (scope) await onMissingScope(scope).catch(() => undefined);
    }
    return response;
  };
}

/**
 * What a context needs of the account, its credential and its configuration, in one statement:
 * every job reads it (three statements through relations, the most of any step on PGlite). The
 * configuration's columns are only read when `hasConfiguration` (they are null without the row).
 */
interface AccountRow {
  zendeskSubdomain: string;
  credentialState: string | null;
  disconnected: boolean;
  credentialScope: string | null;
  hasConfiguration: boolean;
  incidentApiBaseUrl: string | null;
  sealedIncidentApiKey: string | null;
  incidentClientId: string | null;
  incidentSubClientIds: string[];
  forwardInternalNotes: boolean;
  solveOnTakedownSuccess: boolean;
  openTicketsForDetectedIncidents: boolean;
  newTicketGroupId: bigint | null;
  threatFieldId: bigint | null;
  incidentIdFieldId: bigint | null;
  statusFieldId: bigint | null;
  zendeskLocale: string | null;
}

const ACCOUNT_ROW_SQL = `
  SELECT a.zendesk_subdomain AS "zendeskSubdomain",
         z.state::text AS "credentialState",
         a.disconnected_at IS NOT NULL AS "disconnected",
         z.scope AS "credentialScope",
         c.account_id IS NOT NULL AS "hasConfiguration",
         c.incident_api_base_url AS "incidentApiBaseUrl",
         c.sealed_incident_api_key AS "sealedIncidentApiKey",
         c.incident_client_id AS "incidentClientId",
         c.incident_sub_client_ids AS "incidentSubClientIds",
         c.forward_internal_notes AS "forwardInternalNotes",
         c.solve_on_takedown_success AS "solveOnTakedownSuccess",
         c.open_tickets_for_detected_incidents AS "openTicketsForDetectedIncidents",
         c.new_ticket_group_id AS "newTicketGroupId",
         c.threat_field_id AS "threatFieldId",
         c.incident_id_field_id AS "incidentIdFieldId",
         c.status_field_id AS "statusFieldId",
         c.zendesk_locale AS "zendeskLocale"
    FROM account a
    LEFT JOIN zendesk_credential z ON z.account_id = a.id
    LEFT JOIN account_configuration c ON c.account_id = a.id
   WHERE a.id = $1::uuid`;

/** The account's clients before setup has run (setup needs them to create the fields). */
interface AccountClients {
  accountId: string;
  subdomain: string;
  zendesk: ZendeskClient;
  incidents(clientId?: string): IncidentClient;
  /** The parent client first, then the sub-clients. */
  incidentClientIds: string[];
}

export interface DatabaseAccountContextProvider extends AccountContextProvider {
  /**
   * Like forAccount, without requiring the field ids that setup produces. A disconnected account
   * is refused unless `allowDisconnected` (its disconnection removes what setup made).
   */
  clientsFor(
    accountId: string,
    options?: { signal?: AbortSignal; allowDisconnected?: boolean },
  ): Promise<AccountClients>;
  /**
   * The account's Zendesk client alone (no incident connection needed, e.g. for role checks), for
   * a disconnected account too: its admins still sign in and check it.
   */
  zendeskFor(accountId: string): Promise<ZendeskClient>;
}

/** What the provider's functions share. */
interface ProviderDeps {
  db: TDatabase;
  secretBox: SecretBox;
  config: AccountContextProviderConfig;
  now: () => number;
  baseFetch: typeof fetch;
}

/** The driver reads int8 as text (pg) or a number (PGlite): the field and group ids as bigints. */
function withBigIntIds(row: AccountRow): AccountRow {
  const big = (value: bigint | string | number | null) => (value === null ? null : BigInt(value));
  return {
    ...row,
    newTicketGroupId: big(row.newTicketGroupId),
    threatFieldId: big(row.threatFieldId),
    incidentIdFieldId: big(row.incidentIdFieldId),
    statusFieldId: big(row.statusFieldId),
  };
}

/** The account's row when it may act (an active credential; connected unless allowed). */
async function activeAccount(db: TDatabase, accountId: string, allowDisconnected = false) {
  if (!/^[0-9a-f-]{36}$/i.test(accountId)) {
    throw new AccountUnavailableError(accountId, 'unknown_account');
  }
  const [read] = await querySql<AccountRow>(db, ACCOUNT_ROW_SQL, [accountId]);
  if (!read) throw new AccountUnavailableError(accountId, 'unknown_account');
  const row = withBigIntIds(read);
  if (row.credentialState !== 'active') {
    throw new AccountUnavailableError(accountId, 'reauthorization_required');
  }
  if (row.disconnected && !allowDisconnected) {
    throw new AccountUnavailableError(accountId, 'disconnected');
  }
  const {
    zendeskSubdomain,
    hasConfiguration,
    credentialState: _,
    disconnected: __,
    credentialScope,
    ...configuration
  } = row;
  return {
    zendeskSubdomain,
    canReadAudits: scopeSet(credentialScope ?? '').has('read'),
    configuration: hasConfiguration ? configuration : null,
  };
}

type AccountConfiguration = NonNullable<Awaited<ReturnType<typeof activeAccount>>['configuration']>;

function zendeskClientOf(
  deps: ProviderDeps,
  accountId: string,
  subdomain: string,
  signal?: AbortSignal,
) {
  const { db, secretBox, config, now, baseFetch } = deps;
  const tokenProvider = createZendeskTokenProvider({
    db,
    secretBox,
    oauth: config.oauth,
    accountId,
    subdomain,
    now,
    fetch: baseFetch,
    ...(config.observers?.tokenRefresh ? { onRefresh: config.observers.tokenRefresh } : {}),
  });
  return new ZendeskClient({
    baseUrl: zendeskBaseUrl(config.oauth.baseUrlTemplate, subdomain),
    tokenProvider,
    marketplace: config.marketplace,
    fetch: scopeWatchingFetch(baseFetch, (scope) =>
      recordCredentialError(db, accountId, `missing scope: ${scope}`, new Date(now())),
    ),
    retry: { maxRetryAfterMs: INLINE_RETRY_AFTER_MAX_SECONDS * 1000 },
    ...config.zendeskClientOptions,
    observer: config.observers?.zendeskCall,
    signal,
  });
}

/** The account's incident clients, made on first use: its own client and sub-clients only. */
function incidentClientsOf(
  deps: ProviderDeps,
  accountId: string,
  connection: { baseURL: string; apiKey: string; incidentClientIds: string[] },
  signal: AbortSignal | undefined,
): AccountClients['incidents'] {
  const { config, baseFetch } = deps;
  const { baseURL, apiKey, incidentClientIds } = connection;
  const parentClientId = incidentClientIds[0]!;
  const allowedClients = new Set(incidentClientIds);
  const incidentClients = new Map<string, IncidentClient>();
  return (clientId) => {
    const id = clientId ?? parentClientId;
    if (!allowedClients.has(id)) {
      throw new Error(`incident client ${id} is not a client of account ${accountId}`);
    }
    let client = incidentClients.get(id);
    if (!client) {
      client = createIncidentClient({
        baseURL,
        apiKey,
        clientId: id,
        fetch: baseFetch,
        ...(signal ? { signal } : {}),
        ...(config.observers?.incidentCall ? { observer: config.observers.incidentCall } : {}),
        retry: { maxRetryAfterMs: INLINE_RETRY_AFTER_MAX_SECONDS * 1000 },
        ...config.incidentClientOptions,
      });
      incidentClients.set(id, client);
    }
    return client;
  };
}

/** The account's clients, once its incident connection is configured. */
async function load(
  deps: ProviderDeps,
  accountId: string,
  signal?: AbortSignal,
  allowDisconnected = false,
) {
  const account = await activeAccount(deps.db, accountId, allowDisconnected);
  const configuration = account.configuration;
  if (
    !configuration?.incidentApiBaseUrl ||
    !configuration.sealedIncidentApiKey ||
    !configuration.incidentClientId
  ) {
    throw new AccountUnavailableError(accountId, 'not_configured');
  }
  const subdomain = account.zendeskSubdomain;
  const zendesk = zendeskClientOf(deps, accountId, subdomain, signal);

  const apiKey = await deps.secretBox.open(
    configuration.sealedIncidentApiKey,
    secretBinding.incidentApiKey(accountId),
  );
  const incidentClientIds = [configuration.incidentClientId, ...configuration.incidentSubClientIds];
  const clients: AccountClients = {
    accountId,
    subdomain,
    zendesk,
    incidentClientIds,
    incidents: incidentClientsOf(
      deps,
      accountId,
      { baseURL: configuration.incidentApiBaseUrl, apiKey, incidentClientIds },
      signal,
    ),
  };
  return { clients, configuration, canReadAudits: account.canReadAudits };
}

/** The context of an account setup has run for (its field ids known). */
function contextOf(
  accountId: string,
  clients: AccountClients,
  configuration: AccountConfiguration,
  canReadAudits: boolean,
): AccountContext {
  if (configuration.threatFieldId === null || configuration.incidentIdFieldId === null) {
    throw new AccountUnavailableError(accountId, 'not_configured');
  }
  return {
    accountId,
    subdomain: clients.subdomain,
    zendesk: clients.zendesk,
    incidents: clients.incidents,
    fields: {
      threat: Number(configuration.threatFieldId),
      incidentId: Number(configuration.incidentIdFieldId),
      status: configuration.statusFieldId === null ? null : Number(configuration.statusFieldId),
    },
    settings: {
      forwardInternalNotes: configuration.forwardInternalNotes,
      solveOnTakedownSuccess: configuration.solveOnTakedownSuccess,
      openTicketsForDetectedIncidents: configuration.openTicketsForDetectedIncidents,
      newTicketGroupId:
        configuration.newTicketGroupId === null ? null : Number(configuration.newTicketGroupId),
    },
    noteLocale: noteLocaleOf(configuration.zendeskLocale),
    canReadAudits,
  } satisfies AccountContext;
}

export function createAccountContextProvider(options: {
  db: TDatabase;
  secretBox: SecretBox;
  config: AccountContextProviderConfig;
}): DatabaseAccountContextProvider {
  const { config } = options;
  const deps: ProviderDeps = {
    ...options,
    now: config.now ?? Date.now,
    baseFetch: config.fetch ?? fetch,
  };
  return {
    async clientsFor(accountId, clientOptions = {}) {
      return (await load(deps, accountId, clientOptions.signal, clientOptions.allowDisconnected))
        .clients;
    },
    async zendeskFor(accountId) {
      const account = await activeAccount(deps.db, accountId, true);
      return zendeskClientOf(deps, accountId, account.zendeskSubdomain);
    },
    async forAccount(accountId, contextOptions = {}) {
      const { clients, configuration, canReadAudits } = await load(
        deps,
        accountId,
        contextOptions.signal,
      );
      return contextOf(accountId, clients, configuration, canReadAudits);
    },
  };
}
