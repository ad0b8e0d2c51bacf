import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { TWorkspaceApp, TWorkspaceInstallation } from './options';

/** The sidebar app as the host page needs it, whichever way it is served. */
export interface LoadedApp {
  name: string;
  appId: number | string;
  /** zcli's installation id (from its app.json); a folder app is installed per account instead. */
  installationId: number | string | null;
  /** `folder`: `sidebarPath` is relative to the app folder; `zcli`: `sidebarUrl` is absolute. */
  source:
    { kind: 'folder'; dir: string; sidebarPath: string } | { kind: 'zcli'; sidebarUrl: string };
  /** Every setting value, secure ones included: server side only. */
  settings: Record<string, unknown>;
  secureSettingNames: ReadonlySet<string>;
  /** The location wants its first request POSTed with a ZAF JWT Zendesk signs (`signedUrls`). */
  signedUrls: boolean;
  /** Hosts that `client.request` may send secure settings to (the manifest's `domainWhitelist`). */
  domainWhitelist: readonly string[];
}

const ZLocationEntry = z.union([
  z.string(),
  z.looseObject({ url: z.string(), signedUrls: z.boolean().optional() }),
]);
// `location` is `{support: {ticket_sidebar: ...}}`, or in old manifests a bare location name or list.
const ZLocation = z.union([
  z.record(z.string(), z.record(z.string(), ZLocationEntry)),
  z.string(),
  z.array(z.string()),
]);

const ZManifest = z.looseObject({
  name: z.string().default('App'),
  location: ZLocation.optional(),
  domainWhitelist: z.array(z.string()).default([]),
  parameters: z
    .array(
      z.looseObject({
        name: z.string(),
        secure: z.boolean().optional(),
        default: z.unknown().optional(),
      }),
    )
    .default([]),
});

const ZZcliAppJson = z.looseObject({
  apps: z
    .array(
      z.looseObject({
        name: z.string().default('App'),
        id: z.union([z.string(), z.number()]),
        asset_url_prefix: z.string(),
        // zcli writes the manifest's `location`; accept `locations` too.
        location: ZLocation.optional(),
        locations: ZLocation.optional(),
        domainWhitelist: z.array(z.string()).optional(),
      }),
    )
    .min(1),
  installations: z
    .array(
      z.looseObject({
        id: z.union([z.string(), z.number()]).optional(),
        // zcli writes an object; accept Zendesk's `[{name, value}]` list form too.
        settings: z
          .union([
            z.record(z.string(), z.unknown()),
            z.array(z.looseObject({ name: z.string(), value: z.unknown() })),
          ])
          .optional(),
      }),
    )
    .default([]),
});

export class AppLoadError extends Error {
  override name = 'AppLoadError';
}

function sidebarLocation(
  location: z.infer<typeof ZLocation> | undefined,
): { url: string; signedUrls: boolean } | null {
  if (location === undefined) return null;
  if (typeof location === 'string')
    return location === 'ticket_sidebar' ? { url: 'assets/iframe.html', signedUrls: false } : null;
  if (Array.isArray(location))
    return location.includes('ticket_sidebar')
      ? { url: 'assets/iframe.html', signedUrls: false }
      : null;
  const entry = location.support?.ticket_sidebar;
  if (entry === undefined) return null;
  return typeof entry === 'string'
    ? { url: entry, signedUrls: false }
    : { url: entry.url, signedUrls: entry.signedUrls === true };
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const HOST_NAME = /^(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*(?::\d+)?$/i;

/**
 * What Zendesk refuses when an app is uploaded or installed, refused here too: a hosted location
 * over plain HTTP (loopback excepted, for local development), `signedUrls` on a location Zendesk
 * serves itself (it signs only requests to the app's own server), and a `domainWhitelist` entry
 * that is not a host name.
 */
function checkManifest(manifest: z.infer<typeof ZManifest>): void {
  const location = sidebarLocation(manifest.location);
  if (location && /^[a-z][a-z0-9+.-]*:/i.test(location.url)) {
    let url: URL;
    try {
      url = new URL(location.url);
    } catch {
      throw new AppLoadError(`manifest.json: location url ${location.url} is not a URL`);
    }
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname)))
      throw new AppLoadError('manifest.json: a hosted location must be an https URL');
  } else if (location?.signedUrls) {
    throw new AppLoadError(
      'manifest.json: signedUrls needs an absolute location URL (a hosted app)',
    );
  }
  for (const host of manifest.domainWhitelist)
    if (!HOST_NAME.test(host))
      throw new AppLoadError(`manifest.json: domainWhitelist entry ${host} is not a host name`);
}

function numericIfPossible(id: string | number): string | number {
  return typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id;
}

export async function loadApp(
  app: TWorkspaceApp,
  installation: TWorkspaceInstallation,
  fetchImpl: typeof fetch,
) {
  return 'dir' in app
    ? loadFolderApp(app.dir, installation)
    : loadZcliApp(app.zcliUrl, installation, fetchImpl);
}

async function readManifest(dir: string): Promise<z.infer<typeof ZManifest>> {
  const file = path.join(dir, 'manifest.json');
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (err) {
    throw new AppLoadError(`cannot read ${file}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    throw new AppLoadError(`${file} is not JSON: ${(err as Error).message}`);
  }
  const manifest = ZManifest.safeParse(json);
  if (!manifest.success)
    throw new AppLoadError(`manifest.json is invalid: ${manifest.error.message}`);
  checkManifest(manifest.data);
  return manifest.data;
}

/** The `secure: true` parameters of an app folder's manifest. */
export async function secureParameterNames(dir: string): Promise<string[]> {
  return (await readManifest(dir)).parameters.filter((p) => p.secure).map((p) => p.name);
}

async function loadFolderApp(
  dir: string,
  installation: TWorkspaceInstallation,
): Promise<LoadedApp> {
  const manifest = { data: await readManifest(dir) };
  const location = sidebarLocation(manifest.data.location);
  const sidebarPath = location?.url;
  if (!sidebarPath) throw new AppLoadError('manifest.json has no support.ticket_sidebar location');
  if (/^[a-z][a-z0-9+.-]*:/i.test(sidebarPath)) {
    // An absolute location URL (a hosted app): Zendesk loads it as is.
    return {
      ...folderCommon(manifest.data, installation),
      source: { kind: 'zcli', sidebarUrl: sidebarPath },
    };
  }
  return {
    ...folderCommon(manifest.data, installation),
    source: { kind: 'folder', dir, sidebarPath },
  };
}

function folderCommon(manifest: z.infer<typeof ZManifest>, installation: TWorkspaceInstallation) {
  const defaults = Object.fromEntries(
    manifest.parameters.filter((p) => p.default !== undefined).map((p) => [p.name, p.default]),
  );
  const secure = new Set(installation.secureSettingNames);
  for (const p of manifest.parameters) if (p.secure) secure.add(p.name);
  return {
    name: manifest.name,
    appId: installation.appId ?? 1,
    installationId: null,
    settings: { ...defaults, title: manifest.name, ...installation.settings },
    secureSettingNames: secure,
    signedUrls: sidebarLocation(manifest.location)?.signedUrls ?? false,
    domainWhitelist: manifest.domainWhitelist,
  };
}

async function loadZcliApp(
  zcliUrl: string,
  installation: TWorkspaceInstallation,
  fetchImpl: typeof fetch,
): Promise<LoadedApp> {
  const appJsonUrl = new URL(
    zcliUrl.endsWith('/app.json') ? zcliUrl : zcliUrl.replace(/\/?$/, '/app.json'),
  );
  let body: unknown;
  try {
    const res = await fetchImpl(appJsonUrl);
    if (!res.ok) throw new Error(`answered ${res.status}`);
    body = await res.json();
  } catch (err) {
    throw new AppLoadError(`cannot load ${appJsonUrl.href}: ${(err as Error).message}`);
  }
  const parsed = ZZcliAppJson.safeParse(body);
  if (!parsed.success)
    throw new AppLoadError(`${appJsonUrl.href} is not zcli's app.json: ${parsed.error.message}`);
  const [app] = parsed.data.apps;
  if (!app) throw new AppLoadError('app.json lists no app');
  const location = sidebarLocation(app.location ?? app.locations);
  const entry = location?.url;
  if (!entry) throw new AppLoadError('app.json: the app has no support.ticket_sidebar location');
  // zcli serves `assets/iframe.html` under asset_url_prefix (which ends in `assets/`).
  const prefix = new URL(app.asset_url_prefix, appJsonUrl);
  const sidebarUrl = /^[a-z][a-z0-9+.-]*:/i.test(entry)
    ? entry
    : new URL(entry.startsWith('assets/') ? entry.slice('assets/'.length) : entry, prefix).href;
  const inst = parsed.data.installations[0];
  const zcliSettings = Array.isArray(inst?.settings)
    ? Object.fromEntries(inst.settings.map((s) => [s.name, s.value]))
    : (inst?.settings ?? {});
  return {
    name: app.name,
    appId: installation.appId ?? numericIfPossible(app.id),
    installationId: inst?.id !== undefined ? numericIfPossible(inst.id) : null,
    source: { kind: 'zcli', sidebarUrl },
    settings: { title: app.name, ...zcliSettings, ...installation.settings },
    // zcli's app.json does not say which settings are secure: the options must.
    secureSettingNames: new Set(installation.secureSettingNames),
    signedUrls: location.signedUrls,
    domainWhitelist: app.domainWhitelist ?? [],
  };
}

/** Settings the browser may see: everything but the secure ones. */
export function publicSettings(app: LoadedApp): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(app.settings).filter(([name]) => !app.secureSettingNames.has(name)),
  );
}
