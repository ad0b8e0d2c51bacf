import { z } from 'zod';
import { mintJwt, ZJwtOption } from './mint-jwt';
import type { WorkspaceSession } from './session-store';
import { settingValues, substitute, substituteDeep } from './substitute-placeholders';

/** The `client.request` options a host honours (jQuery.ajax-like, as ZAF documents them). */
const ZRequestOptions = z.looseObject({
  url: z.string().min(1),
  type: z.string().optional(),
  method: z.string().optional(),
  contentType: z.union([z.string(), z.boolean()]).optional(),
  data: z.unknown().optional(),
  dataType: z.string().optional(),
  headers: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  secure: z.boolean().optional(),
  cors: z.boolean().optional(),
  httpCompleteResponse: z.boolean().optional(),
  timeout: z.number().nonnegative().optional(),
  jwt: z.unknown().optional(),
});

/** What the host posts back as `zaf.request:<n>.done` or `.fail`: `{responseArgs}`. */
export interface ProxyOutcome {
  outcome: 'done' | 'fail';
  responseArgs: unknown[];
}

export interface ProxyContext {
  session: WorkspaceSession;
  fetch: typeof fetch;
  defaultTimeoutMs: number;
}

const failWith = (status: number, statusText: string, responseText: string): ProxyOutcome => ({
  outcome: 'fail',
  responseArgs: [{ status, statusText, responseText }],
});

// Headers fetch computes itself, or that must not be forwarded to another host.
const DROPPED_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'cookie',
]);

const SECURE_PLACEHOLDER_TEST = /\{\{\s*setting\./;
const SECURE_PLACEHOLDER = /\{\{\s*setting\.([A-Za-z0-9_.-]+)\s*\}\}/g;

/** The secure settings a request's url, headers and data name. */
function secureSettingsNamed(
  options: z.infer<typeof ZRequestOptions>,
  secure: ReadonlySet<string>,
) {
  const text = JSON.stringify([
    options.url,
    options.headers ?? {},
    options.data ?? null,
    options.jwt ?? null,
  ]);
  return [...text.matchAll(SECURE_PLACEHOLDER)]
    .map((m) => m[1]!)
    .filter((name) => secure.has(name));
}

function hostAllowed(host: string, whitelist: readonly string[]): boolean {
  const name = host.toLowerCase();
  return whitelist.some((entry) => {
    const allowed = entry.toLowerCase();
    return allowed.startsWith('*.') ? name.endsWith(allowed.slice(1)) : name === allowed;
  });
}

/**
 * Performs an app's `client.request` server side, as Zendesk's proxy does: relative URLs go to the
 * account's API as the agent; `secure: true` substitutes `{{setting.NAME}}` (secure settings
 * included), and a secure setting is only sent to a host of the manifest's `domainWhitelist`.
 */
export async function proxyRequest(rawOptions: unknown, ctx: ProxyContext): Promise<ProxyOutcome> {
  const parsed = ZRequestOptions.safeParse(
    typeof rawOptions === 'string' ? { url: rawOptions } : rawOptions,
  );
  if (!parsed.success)
    return failWith(400, 'Bad Request', `invalid request options: ${parsed.error.message}`);
  const options = parsed.data;

  const values =
    options.secure && ctx.session.app
      ? settingValues(ctx.session.app.settings)
      : new Map<string, string>();
  const rawUrl = substitute(options.url, values);
  const relative = rawUrl.startsWith('/') && !rawUrl.startsWith('//');
  let target: URL;
  try {
    target = relative ? new URL(rawUrl, 'http://account.invalid') : new URL(rawUrl);
  } catch {
    return failWith(400, 'Bad Request', `invalid url: ${options.url}`);
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    return failWith(400, 'Bad Request', `unsupported url scheme: ${target.protocol}`);
  }
  const app = ctx.session.app;
  if (options.secure && app && !relative) {
    const named = secureSettingsNamed(options, app.secureSettingNames);
    if (named.length > 0 && !hostAllowed(target.hostname, app.domainWhitelist))
      return failWith(
        403,
        'Forbidden',
        `secure settings (${named.join(', ')}) may only be sent to the domainWhitelist hosts; ${target.hostname} is not one`,
      );
  }

  if (options.jwt !== undefined) {
    // Zendesk's proxy mints `{{jwt.token}}` server side, so the secret (a secure setting) never
    // reaches the browser; an unsubstituted placeholder means `secure: true` was missing.
    const jwt = ZJwtOption.safeParse(substituteDeep(options.jwt, values));
    if (!jwt.success)
      return failWith(400, 'Bad Request', `invalid jwt option: ${jwt.error.message}`);
    if (SECURE_PLACEHOLDER_TEST.test(jwt.data.secret_key))
      return failWith(
        400,
        'Bad Request',
        'jwt secret_key names a setting: the request must be secure',
      );
    try {
      values.set('jwt.token', await mintJwt(jwt.data));
    } catch (err) {
      return failWith(400, 'Bad Request', (err as Error).message);
    }
  }

  const method = (options.type ?? options.method ?? 'GET').toUpperCase();
  const headers = new Headers();
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (!DROPPED_HEADERS.has(name.toLowerCase()))
      headers.set(name, substitute(String(value), values));
  }
  if (!headers.has('accept')) {
    headers.set(
      'accept',
      options.dataType === 'json' ? 'application/json, text/javascript, */*; q=0.01' : '*/*',
    );
  }

  const data = substituteDeep(options.data, values);
  let body: string | undefined;
  if (data !== undefined && data !== null) {
    const encoded =
      typeof data === 'string'
        ? data
        : typeof options.contentType === 'string' && options.contentType.includes('json')
          ? JSON.stringify(data)
          : formEncode(data);
    if (method === 'GET' || method === 'HEAD') {
      if (encoded) target.search += (target.search ? '&' : '') + encoded;
    } else {
      body = encoded;
    }
  }
  if (body !== undefined && options.contentType !== false) {
    headers.set(
      'content-type',
      typeof options.contentType === 'string'
        ? options.contentType
        : 'application/x-www-form-urlencoded; charset=UTF-8',
    );
  }

  const init: RequestInit = {
    method,
    headers,
    body,
    signal: AbortSignal.timeout(options.timeout || ctx.defaultTimeoutMs),
  };
  let res: Response;
  try {
    res = relative
      ? await ctx.session.api.send(target.pathname + target.search, init)
      : await ctx.fetch(target, init);
  } catch (err) {
    const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
    return failWith(0, timedOut ? 'timeout' : 'error', '');
  }
  return toOutcome(res, options);
}

function formEncode(data: unknown): string {
  if (!data || typeof data !== 'object') return String(data);
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(data)) {
    if (Array.isArray(v)) for (const item of v) params.append(`${k}[]`, String(item));
    else if (v !== undefined && v !== null)
      params.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  return params.toString();
}

async function toOutcome(
  res: Response,
  options: z.infer<typeof ZRequestOptions>,
): Promise<ProxyOutcome> {
  const responseText = await res.text();
  const headers = Object.fromEntries(res.headers.entries());
  const looksJson = (res.headers.get('content-type') ?? '').includes('json');
  let responseJSON: unknown;
  let parseFailed = false;
  if (
    (looksJson || options.dataType === 'json') &&
    options.dataType !== 'text' &&
    responseText !== ''
  ) {
    try {
      responseJSON = JSON.parse(responseText);
    } catch {
      parseFailed = options.dataType === 'json';
    }
  }
  const base = { status: res.status, statusText: res.statusText, responseText };
  const withJson = responseJSON === undefined ? base : { ...base, responseJSON };

  if (!res.ok || parseFailed) {
    const failure = parseFailed ? { ...withJson, statusText: 'parsererror' } : withJson;
    return {
      outcome: 'fail',
      responseArgs: [options.httpCompleteResponse ? { ...failure, headers } : failure],
    };
  }
  if (options.httpCompleteResponse) {
    return {
      outcome: 'done',
      responseArgs: [{ status: res.status, responseJSON, responseText, headers }],
    };
  }
  return {
    outcome: 'done',
    responseArgs: [responseJSON !== undefined ? responseJSON : responseText],
  };
}
