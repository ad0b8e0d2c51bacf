import { randomBytes } from 'node:crypto';
import type {
  AccountLimits,
  AccountRecord,
  AuthorizationCodeRecord,
  OAuthClientRecord,
  TRole,
  TTicketRestriction,
  TokenRecord,
  UserRecord,
} from './model';

import { AppRegistry } from './app-keys';

export type Clock = () => number;

const DEFAULT_REQUESTS_PER_MINUTE = 700;

/** Zendesk's figures (README, "Limits", says where each comes from). */
export const DEFAULT_ACCOUNT_LIMITS: AccountLimits = {
  requestsPerMinute: DEFAULT_REQUESTS_PER_MINUTE,
  windowMs: 60_000,
  updateTicketPerMinute: 100,
  updateTicketWindowMs: 60_000,
  ticketUpdatesPerUser: 30,
  ticketUpdatesWindowMs: 600_000,
  maxActiveJobs: 30,
};

export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    /** Headers the answer carries (Retry-After on a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.description === 'string' ? body.description : String(body.error));
  }
}

export function recordNotFound(): SandboxError {
  return new SandboxError(404, { error: 'RecordNotFound', description: 'Not found' });
}

export function recordInvalid(
  details: Record<string, { description: string; error?: string }[]>,
): SandboxError {
  return new SandboxError(422, {
    error: 'RecordInvalid',
    description: 'Record validation errors',
    details,
  });
}

export function randomHex(bytes: number): string {
  return randomBytes(bytes).toString('hex');
}

type TicketListener = (subdomain: string, ticketId: number) => void;

/** All accounts, OAuth clients, tokens and codes of one sandbox. Every lookup takes the subdomain. */
export interface UserInput {
  name: string;
  email: string;
  role: TRole;
  locale?: string | undefined;
  time_zone?: string | undefined;
  role_type?: number | null | undefined;
  ticket_restriction?: TTicketRestriction | null | undefined;
  organization_id?: number | null | undefined;
  group_ids?: number[] | undefined;
}

export class SandboxState {
  readonly accounts = new Map<string, AccountRecord>();
  readonly clients = new Map<string, OAuthClientRecord>();
  readonly tokens: TokenRecord[] = [];
  readonly codes = new Map<string, AuthorizationCodeRecord>();
  /** Installed apps: their signing keys and per-account installations. */
  readonly apps = new AppRegistry();
  private nextId = 10_001;
  private readonly ticketListeners = new Set<TicketListener>();
  private readonly changeListeners = new Set<() => void>();

  constructor(
    readonly now: Clock,
    private readonly defaults: { searchLagMs: number; limits: AccountLimits },
  ) {}

  id(): number {
    return this.nextId++;
  }

  /** The next id `id()` hands out (saved with the state, so ids never repeat after a restart). */
  peekNextId(): number {
    return this.nextId;
  }

  /** Restoring a saved state: ids go on from where they were. */
  continueIdsFrom(next: number): void {
    this.nextId = next;
  }

  isoNow(): string {
    return new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  createAccount(subdomain: string): AccountRecord {
    if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(subdomain)) {
      throw recordInvalid({
        subdomain: [
          {
            description: 'Subdomain must be lowercase letters, digits and dashes',
            error: 'InvalidValue',
          },
        ],
      });
    }
    if (this.accounts.has(subdomain)) {
      throw recordInvalid({
        subdomain: [{ description: 'Subdomain: has already been taken', error: 'DuplicateValue' }],
      });
    }
    const account: AccountRecord = {
      id: this.id(),
      subdomain,
      users: new Map(),
      groups: new Map(),
      tickets: new Map(),
      comments: new Map(),
      audits: new Map(),
      defaultLocale: 'en-US',
      attachments: new Map(),
      uploads: new Map(),
      ticketFields: new Map(),
      webhooks: new Map(),
      triggers: new Map(),
      views: new Map(),
      searchIndex: new Map(),
      searchLagMs: this.defaults.searchLagMs,
      rateLimit: { ...this.defaults.limits },
      jobs: new Map(),
      duplicateNextDeliveries: 0,
      deliveries: [],
      nextTicketId: 1,
      idempotencyKeys: new Map(),
    };
    const group = { id: this.id(), name: 'Support' };
    account.groups.set(group.id, group);
    this.accounts.set(subdomain, account);
    return account;
  }

  account(subdomain: string): AccountRecord | undefined {
    return this.accounts.get(subdomain);
  }

  requireAccount(subdomain: string): AccountRecord {
    const account = this.accounts.get(subdomain);
    if (!account) throw recordNotFound();
    return account;
  }

  createUser(account: AccountRecord, input: UserInput): UserRecord {
    const email = input.email.toLowerCase();
    for (const existing of account.users.values()) {
      if (existing.email === email) {
        throw recordInvalid({
          email: [
            {
              description: `Email: ${email} is already being used by another user`,
              error: 'DuplicateValue',
            },
          ],
        });
      }
    }
    const now = this.isoNow();
    const user: UserRecord = {
      id: this.id(),
      name: input.name,
      email,
      role: input.role,
      locale: input.locale ?? 'en-US',
      time_zone: input.time_zone ?? 'UTC',
      role_type: input.role === 'agent' ? (input.role_type ?? null) : null,
      ticket_restriction: input.role === 'agent' ? (input.ticket_restriction ?? null) : null,
      organization_id: input.organization_id ?? null,
      // an agent belongs to the account's first group unless told otherwise
      group_ids:
        input.role === 'end-user'
          ? []
          : (input.group_ids ?? [...account.groups.keys()].slice(0, 1)),
      created_at: now,
      updated_at: now,
    };
    account.users.set(user.id, user);
    return user;
  }

  ownerAdmin(account: AccountRecord): UserRecord {
    for (const user of account.users.values()) if (user.role === 'admin') return user;
    throw new SandboxError(422, {
      error: 'RecordInvalid',
      description: `Account ${account.subdomain} has no admin`,
    });
  }

  registerClient(
    input: Omit<OAuthClientRecord, 'id' | 'secret' | 'owner_user_id'> & {
      secret?: string;
      owner_user_id?: number | null;
    },
  ): OAuthClientRecord {
    if (this.clients.has(input.identifier)) {
      throw recordInvalid({
        identifier: [
          { description: 'Identifier: has already been taken', error: 'DuplicateValue' },
        ],
      });
    }
    if (input.subdomain !== null) this.requireAccount(input.subdomain);
    const client: OAuthClientRecord = {
      ...input,
      id: this.id(),
      secret: input.secret ?? randomHex(32),
      owner_user_id: input.owner_user_id ?? null,
    };
    this.clients.set(client.identifier, client);
    return client;
  }

  /** A client usable on this account: global, or local to this very account. */
  clientFor(subdomain: string, identifier: string): OAuthClientRecord | undefined {
    const client = this.clients.get(identifier);
    if (!client) return undefined;
    return client.subdomain === null || client.subdomain === subdomain ? client : undefined;
  }

  onTicketChanged(listener: TicketListener): () => void {
    this.ticketListeners.add(listener);
    return () => this.ticketListeners.delete(listener);
  }

  emitTicketChanged(subdomain: string, ticketId: number): void {
    for (const listener of this.ticketListeners) {
      try {
        listener(subdomain, ticketId);
      } catch {
        // A listener's failure must not undo a committed change.
      }
    }
    this.markChanged();
  }

  /** Told after changes made outside a request (webhook attempts, background jobs, ticket changes). */
  onChanged(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  markChanged(): void {
    for (const listener of this.changeListeners) listener();
  }
}
