import type {
  ZafClient,
  ZafContext,
  ZafMetadata,
  ZafRequestOptions,
} from '../src/app/zaf/zafClient';

export type FakeReply =
  { status: number; body?: unknown; headers?: Record<string, string> } | 'network' | 'hang';
type FakeHandler = (request: ZafRequestOptions) => FakeReply | Promise<FakeReply>;

export interface FakeOptions {
  settings?: Record<string, unknown>;
  /** null: a ticket being created (no id yet). */
  ticketId?: number | null;
  currentUser?: Record<string, unknown>;
  subdomain?: string;
  location?: string;
  handler?: FakeHandler;
  /** Delay app.registered until register() is called. */
  manualRegistration?: boolean;
}

export interface FakeZafClient extends ZafClient {
  requests: ZafRequestOptions[];
  getCalls: (string | string[])[];
  invocations: { name: string; args: unknown[] }[];
  trigger(name: string, payload?: unknown): void;
  register(): void;
  listenerCount(name: string): number;
  setHandler(handler: FakeHandler): void;
}

/** A stand-in for the ZAF SDK client with the same surface and the same request semantics. */
export function createFakeZafClient(options: FakeOptions = {}): FakeZafClient {
  const listeners = new Map<string, Set<(payload?: unknown) => void>>();
  let handler: FakeHandler = options.handler ?? (() => ({ status: 404, body: {} }));
  const metadata: ZafMetadata = {
    appId: 0,
    installationId: 1,
    settings: options.settings ?? { connector_url: 'https://connector.example.test' },
  };
  const context: ZafContext = {
    product: 'support',
    location: options.location ?? 'ticket_sidebar',
    ticketId: options.ticketId === null ? undefined : (options.ticketId ?? 42),
    account: { subdomain: options.subdomain ?? 'acme' },
  };
  let registered = !options.manualRegistration;
  const waiting: (() => void)[] = [];
  const whenRegistered = () =>
    registered ? Promise.resolve() : new Promise<void>((resolve) => waiting.push(resolve));

  const currentUser = options.currentUser ?? {
    id: 7,
    email: 'agent@acme.example',
    name: 'Ada Agent',
    locale: 'en-US',
    timeZone: { ianaName: 'UTC' },
  };

  const client: FakeZafClient = {
    requests: [],
    getCalls: [],
    invocations: [],
    on(name, fn) {
      if (!listeners.has(name)) listeners.set(name, new Set());
      listeners.get(name)!.add(fn);
    },
    off(name, fn) {
      listeners.get(name)?.delete(fn);
    },
    async get(path) {
      client.getCalls.push(path);
      const paths = Array.isArray(path) ? path : [path];
      const result: Record<string, unknown> = { errors: {} };
      for (const p of paths) {
        if (p === 'ticket.id')
          result[p] = options.ticketId === null ? null : (options.ticketId ?? 42);
        else if (p === 'currentUser') result[p] = currentUser;
        else if (p === 'currentAccount') result[p] = { subdomain: options.subdomain ?? 'acme' };
      }
      return result;
    },
    async invoke(name, ...args) {
      client.invocations.push({ name, args });
      return {};
    },
    async request(request) {
      client.requests.push(request);
      const reply = await handler(request);
      if (reply === 'hang') return new Promise(() => {});
      if (reply === 'network') throw { status: 0, statusText: 'error', responseText: '' };
      if (reply.status >= 400) {
        throw {
          status: reply.status,
          responseJSON: reply.body,
          responseText: JSON.stringify(reply.body ?? ''),
          headers: reply.headers,
        };
      }
      return { status: reply.status, responseJSON: reply.body, headers: reply.headers ?? {} };
    },
    async metadata() {
      await whenRegistered();
      return metadata;
    },
    async context() {
      await whenRegistered();
      return context;
    },
    trigger(name, payload) {
      for (const fn of listeners.get(name) ?? []) fn(payload);
    },
    register() {
      registered = true;
      waiting.splice(0).forEach((resolve) => resolve());
    },
    listenerCount(name) {
      return listeners.get(name)?.size ?? 0;
    },
    setHandler(next) {
      handler = next;
    },
  };
  return client;
}
