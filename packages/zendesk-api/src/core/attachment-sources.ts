// Where an attachment's content_url (and every redirect it takes) may be downloaded from:
// - the account's own origin (baseUrl), the only place the bearer token goes;
// - an exact origin the operator listed (`https://files.example`), trusted as configured;
// - a host matching an allowed name or `*.suffix` (Zendesk's own: ZENDESK_ATTACHMENT_HOSTS), over
//   HTTPS on the default port, and only when every address it resolves to is public. The check is
//   made in the connection's own DNS lookup, so the address checked is the address connected to
//   (a name cannot resolve to a public address for the check and a private one for the request).
// Anything else is refused with ZendeskAttachmentRefusedError before a connection is opened.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import type { Agent, fetch as UndiciFetch } from 'undici';
import { ZendeskAttachmentRefusedError, ZendeskError } from './errors';
import { isPublicAddress } from './public-address';

/** Hosts Zendesk serves ticket attachments from: the accounts' hosts and its user-content domain. */
export const ZENDESK_ATTACHMENT_HOSTS: readonly string[] = ['*.zendesk.com', '*.zdusercontent.com'];

/** Resolves a host name to all its addresses (default: the system resolver, as fetch uses). */
export type AttachmentHostResolver = (hostname: string) => Promise<LookupAddress[]>;

export interface AttachmentSourceOptions {
  /**
   * Besides the account's own origin: exact origins (`https://files.example:8443`, trusted as
   * given) and host names or `*.suffix` wildcards (HTTPS only, public addresses only).
   * Default: ZENDESK_ATTACHMENT_HOSTS.
   */
  hosts?: readonly string[] | undefined;
  /** Injectable for tests. Default: dns.lookup with all addresses. */
  resolve?: AttachmentHostResolver | undefined;
}

export type TAttachmentSource = 'account' | 'listed-origin' | 'checked-host';

const systemResolve: AttachmentHostResolver = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A net.connect `lookup` that answers only with addresses that are all public. */
export function checkedLookup(resolve: AttachmentHostResolver) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number | string },
    callback: LookupCallback,
  ) => {
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0 || addresses.some((a) => !isPublicAddress(a.address))) {
          callback(
            new ZendeskAttachmentRefusedError('private_address', hostname) as NodeJS.ErrnoException,
            '',
          );
          return;
        }
        const family =
          options.family === 'IPv4'
            ? 4
            : options.family === 'IPv6'
              ? 6
              : Number(options.family ?? 0);
        const wanted = family ? addresses.filter((a) => a.family === family) : addresses;
        const first = wanted[0];
        if (!first) {
          callback(
            Object.assign(new Error(`no IPv${family} address for ${hostname}`), {
              code: 'ENOTFOUND',
            }),
            '',
          );
        } else if (options.all) {
          callback(null, wanted);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

/** Throws ZendeskError naming the first entry that is not a host name, `*.suffix` or origin. */
export function checkAttachmentHosts(hosts: readonly string[]): void {
  new AttachmentSources('null', { hosts });
}

export class AttachmentSources {
  private readonly origins = new Set<string>();
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];
  private checkedFetch: typeof fetch | undefined;
  private agent: Promise<{ dispatcher: Agent; fetch: typeof UndiciFetch }> | undefined;
  private readonly resolve: AttachmentHostResolver;

  constructor(
    private readonly accountOrigin: string,
    options: AttachmentSourceOptions = {},
  ) {
    this.resolve = options.resolve ?? systemResolve;
    for (const raw of options.hosts ?? ZENDESK_ATTACHMENT_HOSTS) {
      const entry = raw.trim().toLowerCase();
      if (entry === '') continue;
      if (entry.includes('://')) {
        let origin: URL;
        try {
          origin = new URL(entry);
        } catch {
          throw new ZendeskError(`attachment source is not a valid origin: ${JSON.stringify(raw)}`);
        }
        if (origin.protocol !== 'https:' && origin.protocol !== 'http:') {
          throw new ZendeskError(`attachment source must be http(s): ${JSON.stringify(raw)}`);
        }
        this.origins.add(origin.origin);
      } else if (
        entry.startsWith('*.') &&
        /^[a-z0-9.-]+$/.test(entry.slice(2)) &&
        entry.slice(2).includes('.')
      ) {
        this.suffixes.push(entry.slice(1));
      } else if (/^[a-z0-9.-]+$/.test(entry) && !entry.includes('*')) {
        this.names.add(entry);
      } else {
        throw new ZendeskError(
          `attachment host must be a host name, *.suffix (with a dot) or an origin: ${JSON.stringify(raw)}`,
        );
      }
    }
  }

  /** How `url` may be fetched; throws ZendeskAttachmentRefusedError when it may not. */
  classify(url: URL): TAttachmentSource {
    if (url.origin === this.accountOrigin) return 'account';
    if (this.origins.has(url.origin)) return 'listed-origin';
    const host = url.hostname.toLowerCase();
    const literal = host.startsWith('[') ? host.slice(1, -1) : host;
    const listed = this.names.has(host) || this.suffixes.some((suffix) => host.endsWith(suffix));
    if (!listed || url.port !== '')
      throw new ZendeskAttachmentRefusedError('host_not_allowed', url.host);
    if (url.protocol !== 'https:') throw new ZendeskAttachmentRefusedError('not_https', url.host);
    // an address literal is connected to without a lookup, so it is checked here
    if (isIP(literal) && !isPublicAddress(literal))
      throw new ZendeskAttachmentRefusedError('private_address', url.host);
    return 'checked-host';
  }

  /** A fetch whose connections go only to public addresses, checked in the connection's lookup. */
  fetchForCheckedHosts(): typeof fetch {
    if (!this.checkedFetch) {
      // loaded on first use: most clients never download from a host other than their own
      const loaded = async () => {
        this.agent ??= import('undici').then((undici) => ({
          dispatcher: new undici.Agent({ connect: { lookup: checkedLookup(this.resolve) } }),
          fetch: undici.fetch,
        }));
        return this.agent;
      };
      this.checkedFetch = (async (input: string | URL, init?: RequestInit) => {
        const { dispatcher, fetch: undiciFetch } = await loaded();
        return undiciFetch(input, { ...(init as object), dispatcher } as Parameters<
          typeof undiciFetch
        >[1]);
      }) as unknown as typeof fetch;
    }
    return this.checkedFetch;
  }
}
