// The sandbox's state as its file keeps it: every account with its records (maps as lists,
// attachment content in base64), the OAuth clients, tokens and codes, the apps' keys and
// installations, and the id counter, so ids go on after a restart instead of repeating.
import { readStateFile, type TStateFileRead } from '@incident-desk/state-file';
import type { AppRegistrySnapshot } from './app-keys';
import type {
  AccountLimits,
  AccountRecord,
  AttachmentRecord,
  AuditRecord,
  AuthorizationCodeRecord,
  CommentRecord,
  DeliveryRecord,
  GroupRecord,
  JobRecord,
  OAuthClientRecord,
  SearchSnapshot,
  TicketFieldRecord,
  TicketRecord,
  TokenRecord,
  TriggerRecord,
  UploadRecord,
  UserRecord,
  ViewRecord,
  WebhookRecord,
} from './model';
import type { SandboxState } from './sandbox-state';

const FORMAT = 'zendesk-sandbox-state';
const VERSION = 1;

interface AccountSnapshot {
  id: number;
  subdomain: string;
  users: UserRecord[];
  groups: GroupRecord[];
  tickets: TicketRecord[];
  comments: [ticketId: number, comments: CommentRecord[]][];
  /** Absent in files written before audits were kept: those tickets start without audits. */
  audits?: [ticketId: number, audits: AuditRecord[]][];
  /** Absent in older files: `en-US`. */
  defaultLocale?: string;
  attachments: (Omit<AttachmentRecord, 'data'> & { data: string })[];
  uploads: UploadRecord[];
  ticketFields: TicketFieldRecord[];
  webhooks: WebhookRecord[];
  triggers: TriggerRecord[];
  /** Absent in files written before the sandbox had views: read as none. */
  views?: ViewRecord[];
  searchIndex: [ticketId: number, snapshots: SearchSnapshot[]][];
  searchLagMs: number;
  rateLimit: AccountLimits;
  jobs: JobRecord[];
  duplicateNextDeliveries: number;
  deliveries: DeliveryRecord[];
  nextTicketId: number;
  idempotencyKeys: [key: string, ticketId: number][];
}

export interface ZendeskStateSnapshot {
  format: typeof FORMAT;
  version: typeof VERSION;
  nextId: number;
  accounts: AccountSnapshot[];
  clients: OAuthClientRecord[];
  tokens: TokenRecord[];
  codes: AuthorizationCodeRecord[];
  apps: AppRegistrySnapshot;
}

function accountSnapshot(account: AccountRecord): AccountSnapshot {
  return {
    id: account.id,
    subdomain: account.subdomain,
    users: [...account.users.values()],
    groups: [...account.groups.values()],
    tickets: [...account.tickets.values()],
    comments: [...account.comments],
    audits: [...account.audits],
    defaultLocale: account.defaultLocale,
    attachments: [...account.attachments.values()].map((a) => ({
      ...a,
      data: a.data.toString('base64'),
    })),
    uploads: [...account.uploads.values()],
    ticketFields: [...account.ticketFields.values()],
    webhooks: [...account.webhooks.values()],
    triggers: [...account.triggers.values()],
    views: [...account.views.values()],
    searchIndex: [...account.searchIndex],
    searchLagMs: account.searchLagMs,
    rateLimit: account.rateLimit,
    jobs: [...account.jobs.values()],
    duplicateNextDeliveries: account.duplicateNextDeliveries,
    deliveries: account.deliveries,
    nextTicketId: account.nextTicketId,
    idempotencyKeys: [...account.idempotencyKeys],
  };
}

const byId = <T extends { id: K }, K>(records: T[]) => new Map(records.map((r) => [r.id, r]));

function restoreAccount(saved: AccountSnapshot): AccountRecord {
  return {
    id: saved.id,
    subdomain: saved.subdomain,
    users: byId(saved.users),
    groups: byId(saved.groups),
    tickets: byId(saved.tickets),
    comments: new Map(saved.comments),
    audits: new Map(saved.audits ?? []),
    defaultLocale: saved.defaultLocale ?? 'en-US',
    attachments: new Map(
      saved.attachments.map((a) => [a.id, { ...a, data: Buffer.from(a.data, 'base64') }]),
    ),
    uploads: new Map(saved.uploads.map((u) => [u.token, u])),
    ticketFields: byId(saved.ticketFields),
    webhooks: byId(saved.webhooks),
    triggers: byId(saved.triggers),
    views: byId(saved.views ?? []),
    searchIndex: new Map(saved.searchIndex),
    searchLagMs: saved.searchLagMs,
    rateLimit: saved.rateLimit,
    // A job cannot go on in another process: Zendesk's outlive a worker, the sandbox's do not.
    jobs: new Map(
      saved.jobs.map((job) => [
        job.id,
        job.status === 'queued' || job.status === 'working'
          ? { ...job, status: 'failed', message: 'The sandbox stopped while the job ran' }
          : job,
      ]),
    ),
    duplicateNextDeliveries: saved.duplicateNextDeliveries,
    deliveries: saved.deliveries,
    nextTicketId: saved.nextTicketId,
    idempotencyKeys: new Map(saved.idempotencyKeys),
  };
}

export function snapshotOf(state: SandboxState): ZendeskStateSnapshot {
  return {
    format: FORMAT,
    version: VERSION,
    nextId: state.peekNextId(),
    accounts: [...state.accounts.values()].map(accountSnapshot),
    clients: [...state.clients.values()],
    tokens: state.tokens,
    codes: [...state.codes.values()],
    apps: state.apps.snapshot(),
  };
}

/** Replaces everything the state holds with a saved one. */
export function restoreSnapshot(state: SandboxState, saved: ZendeskStateSnapshot): void {
  state.accounts.clear();
  for (const account of saved.accounts)
    state.accounts.set(account.subdomain, restoreAccount(account));
  state.clients.clear();
  for (const client of saved.clients) state.clients.set(client.identifier, client);
  state.tokens.splice(0, state.tokens.length, ...saved.tokens);
  state.codes.clear();
  for (const code of saved.codes) state.codes.set(code.code, code);
  state.apps.restore(saved.apps);
  state.continueIdsFrom(saved.nextId);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const ACCOUNT_LISTS = [
  'users',
  'groups',
  'tickets',
  'comments',
  'attachments',
  'uploads',
  'ticketFields',
  'webhooks',
  'triggers',
  'searchIndex',
  'jobs',
  'deliveries',
  'idempotencyKeys',
] as const;

/**
 * The saved state, or an Error saying why this version cannot use it. The file is the sandbox's
 * own writing, so the check is of its outline: format, version, counters and every list.
 */
export function parseZendeskSnapshot(json: unknown): ZendeskStateSnapshot {
  if (!isObject(json) || json.format !== FORMAT)
    throw new Error(`not a Zendesk sandbox state (format is not "${FORMAT}")`);
  if (json.version !== VERSION)
    throw new Error(`state version ${String(json.version)}; this sandbox reads version ${VERSION}`);
  if (typeof json.nextId !== 'number') throw new Error('not a Zendesk sandbox state (no nextId)');
  for (const name of ['accounts', 'clients', 'tokens', 'codes'] as const) {
    if (!Array.isArray(json[name]))
      throw new Error(`not a Zendesk sandbox state (${name} is not a list)`);
  }
  const apps = json.apps;
  if (!isObject(apps) || !Array.isArray(apps.keys) || !Array.isArray(apps.installations))
    throw new Error('not a Zendesk sandbox state (no apps)');
  for (const account of json.accounts as unknown[]) {
    if (!isObject(account) || typeof account.subdomain !== 'string')
      throw new Error('not a Zendesk sandbox state (an account has no subdomain)');
    for (const name of ACCOUNT_LISTS) {
      if (!Array.isArray(account[name]))
        throw new Error(
          `not a Zendesk sandbox state (${name} of ${account.subdomain} is not a list)`,
        );
    }
    if (account.views !== undefined && !Array.isArray(account.views))
      throw new Error(`not a Zendesk sandbox state (views of ${account.subdomain} is not a list)`);
  }
  return json as unknown as ZendeskStateSnapshot;
}

/** Reads a saved state without loading it (what `npm start` looks at before it starts anything). */
export function readZendeskSandboxStateFile(file: string): TStateFileRead<ZendeskStateSnapshot> {
  return readStateFile(file, parseZendeskSnapshot);
}
