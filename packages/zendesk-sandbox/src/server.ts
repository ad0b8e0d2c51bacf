import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { resolveAccount } from './api/account-resolver';
import { authenticate } from './api/authenticate';
import type { SandboxContext } from './api/context';
import { errorHandler, notFoundRoute } from './api/errors';
import { oauthTokensRouter } from './api/oauth-tokens-router';
import { searchRouter } from './api/search-router';
import { ticketFieldsRouter } from './api/ticket-fields-router';
import { jobStatusesRouter } from './api/job-statuses-router';
import { ticketsRouter } from './api/tickets-router';
import { updateManyRouter } from './api/update-many-router';
import { triggersRouter } from './api/triggers-router';
import { viewsRouter } from './api/views-router';
import { viewExecutionRouter } from './api/view-execution-router';
import { attachmentContentRouter, uploadsRouter } from './api/uploads-router';
import { appsRouter } from './api/apps-router';
import { usersRouter } from './api/users-router';
import { groupsRouter } from './api/groups-router';
import { localesRouter } from './api/locales-router';
import { webhooksRouter } from './api/webhooks-router';
import { ApiRequestCounter } from './control/api-request-counter';
import { controlRouter } from './control/control-router';
import { FaultInjector } from './control/faults';
import { RateLimits } from './control/rate-limiter';
import { DEFAULT_JOB_TIMING, JobRunner, type JobTiming } from './jobs/job-runner';
import { oauthRouter } from './oauth/oauth-router';
import { TokenService } from './oauth/token-service';
import type { AccountLimits, AccountRecord, UserRecord } from './state/model';
import {
  DEFAULT_ACCOUNT_LIMITS,
  SandboxState,
  type Clock,
  type UserInput,
} from './state/sandbox-state';
import { keepStateInFile, type TStateFileOutcome } from './state/kept-state';
import { TicketService } from './state/ticket-service';
import { SandboxUrls } from './state/urls';
import { createTicketChangeHooks } from './triggers/ticket-change-hooks';
import {
  DEFAULT_WEBHOOK_DISPATCH,
  WebhookDispatcher,
  type WebhookDispatchOptions,
} from './triggers/webhook-dispatcher';
import type { WorkspaceDeps } from './workspace-deps';
import { mountWorkspace } from './mount-workspace';
import { requestFormRouter } from './web-form/request-form-router';
import type { WorkspaceOptions } from './workspace';

export interface GlobalClientConfig {
  identifier: string;
  secret: string;
  name?: string;
  redirect_uris: string[];
}

export interface ZendeskSandboxOptions {
  /** Origin used in URLs the sandbox returns (content_url, url, next_page). Default: the listening address. */
  publicUrl?: string;
  /** Milliseconds since the epoch; inject to test expiry without waiting. Default Date.now. */
  clock?: Clock;
  /** Default search indexing lag for new accounts. Default 0. */
  searchLagMs?: number;
  /** Default requests per minute for new accounts. Default 700 (Zendesk Enterprise). */
  requestsPerMinute?: number;
  /** Default limits of new accounts (Update Ticket per account and per user per ticket, jobs). Default Zendesk's. */
  limits?: Partial<AccountLimits>;
  /** How long background jobs (update_many) take. Default 500 ms queued, then 20 ms a ticket. */
  jobs?: Partial<JobTiming>;
  /** Global OAuth clients, valid on every account (what a marketplace integration uses). */
  globalClients?: GlobalClientConfig[];
  /** Webhook delivery: retry delays, timeout, fetch. Defaults follow Zendesk. */
  webhooks?: Partial<WebhookDispatchOptions>;
  /** Options of the agent-workspace host page at /agent (which app to embed, its installation settings). */
  workspace?: WorkspaceOptions;
  /**
   * JSON file the state is kept in: loaded on start (an unusable one is set aside and the sandbox
   * starts empty), written shortly after changes and by close(). Default none (in memory).
   */
  stateFile?: string;
  /** Wait after a change before the state file is written. Default 200 ms. */
  saveDelayMs?: number;
}

export interface ListeningSandbox {
  url: string;
  close(): Promise<void>;
}

export type { TStateFileOutcome } from './state/kept-state';

export interface ZendeskSandbox {
  app: Express;
  state: SandboxState;
  tokens: TokenService;
  tickets: TicketService;
  /** Identifier of the sandbox's own global client (used for tokens issued by the control API). */
  sandboxClientId: string;
  workspaceDeps: WorkspaceDeps;
  listen(port?: number, host?: string): Promise<ListeningSandbox>;
  /** Resolves once every queued webhook delivery (with retries) has finished. */
  webhooksIdle(): Promise<void>;
  /** Resolves once every background job (update_many) started so far has finished. */
  jobsIdle(): Promise<void>;
  createAccount(subdomain: string): AccountRecord;
  createUser(subdomain: string, user: UserInput): UserRecord;
  /** An access token straight from the sandbox, without the OAuth dance. */
  issueToken(subdomain: string, userId: number, scopes?: string[], expiresIn?: number): string;
  /** What opening the state file found; null in memory. */
  stateFile: TStateFileOutcome | null;
  /** Writes the state file now (if any and changed), e.g. right after seeding. */
  flushState(): void;
  /** Closes every server still listening, writes the state file a last time and releases it. */
  close(): Promise<void>;
}

export const SANDBOX_CLIENT_ID = 'zendesk_sandbox_internal';

export function createZendeskSandbox(options: ZendeskSandboxOptions = {}): ZendeskSandbox {
  const state = new SandboxState(options.clock ?? Date.now, {
    searchLagMs: options.searchLagMs ?? 0,
    limits: {
      ...DEFAULT_ACCOUNT_LIMITS,
      ...(options.requestsPerMinute !== undefined
        ? { requestsPerMinute: options.requestsPerMinute }
        : {}),
      ...options.limits,
    },
  });
  const urls = new SandboxUrls(options.publicUrl ?? 'http://127.0.0.1');
  const dispatcher = new WebhookDispatcher(state, {
    ...DEFAULT_WEBHOOK_DISPATCH,
    ...options.webhooks,
  });
  const tickets = new TicketService(state, createTicketChangeHooks(state, urls, dispatcher));
  const tokens = new TokenService(state);
  const faults = new FaultInjector();
  const limits = new RateLimits(state);
  const jobs = new JobRunner(
    state,
    tickets,
    { ...DEFAULT_JOB_TIMING, ...options.jobs },
    (account, user, ticketId, apply) => limits.applyTicketUpdate(account, user.id, ticketId, apply),
  );
  const ctx: SandboxContext = { state, urls, tickets, dispatcher, jobs, limits };

  const kept =
    options.stateFile === undefined
      ? null
      : keepStateInFile(state, options.stateFile, { delayMs: options.saveDelayMs });
  if (!state.clients.has(SANDBOX_CLIENT_ID)) {
    state.registerClient({
      identifier: SANDBOX_CLIENT_ID,
      name: 'Zendesk sandbox',
      redirect_uri: [],
      kind: 'confidential',
      subdomain: null,
    });
  }
  for (const client of options.globalClients ?? []) {
    const kept = state.clients.get(client.identifier);
    // the configuration wins over a saved state: redirect URIs and secrets come from the options
    if (kept) {
      Object.assign(kept, {
        secret: client.secret,
        name: client.name ?? client.identifier,
        redirect_uri: client.redirect_uris,
      });
      continue;
    }
    state.registerClient({
      identifier: client.identifier,
      secret: client.secret,
      name: client.name ?? client.identifier,
      redirect_uri: client.redirect_uris,
      kind: 'confidential',
      subdomain: null,
    });
  }
  if (kept?.outcome.kind === 'loaded') {
    for (const account of state.accounts.values()) dispatcher.resumePending(account);
  }

  const issueToken = (
    subdomain: string,
    userId: number,
    scopes = ['read', 'write'],
    expiresIn = 1_800,
  ): string => {
    const account = state.requireAccount(subdomain);
    const user = account.users.get(userId);
    const client = state.clients.get(SANDBOX_CLIENT_ID);
    if (!user || !client) throw new Error(`no user ${userId} in ${subdomain}`);
    return tokens.issue(subdomain, client, user, scopes, {
      expiresIn,
      refreshExpiresIn: null,
      withRefresh: false,
    }).access_token;
  };

  const toWorkspaceUser = (user: UserRecord, account: AccountRecord) => ({
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    locale: user.locale,
    time_zone: user.time_zone,
    groups: user.group_ids.flatMap((id) => {
      const group = account.groups.get(id);
      return group ? [{ id: group.id, name: group.name }] : [];
    }),
  });

  const workspaceDeps: WorkspaceDeps = {
    apiBaseUrl: () => urls.origin,
    // The longest lifetime Zendesk allows: the workspace caches these per agent.
    issueAgentToken: async (subdomain, userId) =>
      issueToken(subdomain, userId, ['read', 'write'], 172_800),
    findUser: async (subdomain, userId) => {
      const account = state.account(subdomain);
      const user = account?.users.get(userId);
      return account && user ? toWorkspaceUser(user, account) : null;
    },
    defaultAgent: async (subdomain) => {
      const account = state.requireAccount(subdomain);
      const users = [...account.users.values()];
      const agent = users.find((u) => u.role === 'agent') ?? users.find((u) => u.role === 'admin');
      if (!agent) throw new Error(`account ${subdomain} has no agent`);
      return toWorkspaceUser(agent, account);
    },
    onTicketChanged: (listener) => state.onTicketChanged(listener),
    installApp: (subdomain, appId) =>
      state.apps.install(state.requireAccount(subdomain).subdomain, appId),
    appSigningKey: (appId) => state.apps.keyOf(appId).privateKey,
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (kept) {
    // any request may change the state (reads too: the workspace page installs the app and
    // issues tokens); a state that did not change is not written again
    app.use((_req, res, next) => {
      res.on('finish', () => kept.changed());
      next();
    });
  }
  app.get('/', (_req, res) => {
    res.json({
      service: 'zendesk-sandbox',
      accounts: [...state.accounts.keys()].map((subdomain) => ({
        subdomain,
        api: urls.api(subdomain, ''),
      })),
      control: `${urls.origin}/_sandbox`,
      agent_workspace: `${urls.origin}/agent/tickets/1`,
      request_form: `${urls.origin}/hc/requests/new`,
    });
  });
  const apiRequests = new ApiRequestCounter();
  app.use(resolveAccount());
  app.use(apiRequests.middleware());
  app.use(faults.middleware());
  app.use(limits.middleware());
  app.use('/_sandbox', apiRequests.router());
  app.use('/_sandbox', limits.router());
  app.use('/_sandbox', controlRouter(ctx, tokens, faults, SANDBOX_CLIENT_ID));
  app.use(oauthRouter(state, tokens));
  app.use(attachmentContentRouter(ctx));
  mountWorkspace(app, workspaceDeps, options.workspace ?? {});
  app.use(
    requestFormRouter(ctx, {
      maxUploadBytes: options.workspace?.maxUploadBytes ?? 50 * 1024 * 1024,
      maxUploadFiles: options.workspace?.maxUploadFiles ?? 10,
    }),
  );
  app.use('/api/v2', express.json({ limit: '10mb' }), authenticate(state, tokens));
  const apiRouters = [
    updateManyRouter,
    jobStatusesRouter,
    ticketsRouter,
    uploadsRouter,
    ticketFieldsRouter,
    usersRouter,
    groupsRouter,
    localesRouter,
    appsRouter,
    searchRouter,
    webhooksRouter,
    triggersRouter,
    // before viewsRouter: `views/count_many` is not a view id
    viewExecutionRouter,
    viewsRouter,
  ];
  for (const router of apiRouters) app.use(router(ctx));
  app.use(oauthTokensRouter(ctx, tokens));
  app.use(notFoundRoute);
  app.use(errorHandler);

  const servers = new Set<Server>();
  const closeServer = (server: Server) =>
    new Promise<void>((done) => {
      servers.delete(server);
      server.closeAllConnections();
      server.close(() => done());
    });
  const listen = (port = 0, host = '127.0.0.1'): Promise<ListeningSandbox> =>
    new Promise((resolve, reject) => {
      const server: Server = createServer(app);
      server.once('error', reject);
      server.listen(port, host, () => {
        servers.add(server);
        const address = server.address() as AddressInfo;
        const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
        if (options.publicUrl === undefined) urls.origin = url;
        resolve({
          url: options.publicUrl ?? url,
          close: () => (servers.has(server) ? closeServer(server) : Promise.resolve()),
        });
      });
    });

  return {
    app,
    state,
    tokens,
    tickets,
    sandboxClientId: SANDBOX_CLIENT_ID,
    workspaceDeps,
    listen,
    webhooksIdle: () => dispatcher.idle(),
    jobsIdle: () => jobs.idle(),
    createAccount: (subdomain) => state.createAccount(subdomain),
    createUser: (subdomain, user) => state.createUser(state.requireAccount(subdomain), user),
    issueToken,
    stateFile: kept?.outcome ?? null,
    flushState: () => kept?.flush(),
    close: async () => {
      await Promise.all([...servers].map(closeServer));
      kept?.close();
    },
  };
}
