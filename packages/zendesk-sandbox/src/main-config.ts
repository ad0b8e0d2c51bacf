import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { WorkspaceOptions } from './workspace';

const ZJsonObject = z.string().transform((text, ctx) => {
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value))
      return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
  return z.NEVER;
});

const ZMainEnv = z.object({
  ZENDESK_SANDBOX_PORT: z.coerce.number().int().min(0).max(65_535).default(8789),
  ZENDESK_SANDBOX_HOST: z.string().min(1).default('127.0.0.1'),
  ZENDESK_SANDBOX_PUBLIC_URL: z.url().optional(),
  ZENDESK_SANDBOX_REDIRECT_URIS: z
    .string()
    .default('http://localhost:8787/oauth/callback,http://127.0.0.1:8787/oauth/callback')
    .transform((list) =>
      list
        .split(',')
        .map((u) => u.trim())
        .filter((u) => u !== ''),
    )
    .pipe(z.array(z.url())),
  ZENDESK_SANDBOX_SEARCH_LAG_MS: z.coerce.number().int().min(0).default(5_000),
  ZENDESK_SANDBOX_APP_DIR: z.string().min(1).optional(),
  ZENDESK_SANDBOX_ZCLI_URL: z.url().optional(),
  ZENDESK_SANDBOX_APP_SETTINGS: ZJsonObject.default({}),
  ZENDESK_SANDBOX_DATA_FILE: z.string().min(1).optional(),
  /** Where both sandboxes keep their state (`npm start`: .data/sandbox); this one's file is zendesk.json. */
  SANDBOX_STATE_DIR: z.string().min(1).optional(),
});

export interface MainConfig {
  port: number;
  host: string;
  /** With a fixed port, URLs say localhost (what a person opens); with port 0 the bound address is used. */
  publicUrl: string | undefined;
  redirectUris: string[];
  searchLagMs: number;
  workspace: WorkspaceOptions;
  /** Where the state is kept; undefined: in memory. */
  stateFile: string | undefined;
}

// A build (npm run build) carries the sidebar and the manifest beside its bundle; sources read the
// repository's.
const fromSources = import.meta.url.endsWith('.ts');
const DEFAULT_APP_DIR = fileURLToPath(
  new URL(fromSources ? '../../../apps/sidebar/dist' : './app', import.meta.url),
);
const APP_MANIFEST = fileURLToPath(
  new URL(fromSources ? '../../../manifest.json' : './manifest.json', import.meta.url),
);

/**
 * The app's secure parameters, from its manifest: zcli's /app.json does not say which settings
 * are secure, and a secure setting must never reach the iframe whatever the app source.
 */
function secureSettingNames(): string[] {
  const manifest = JSON.parse(readFileSync(APP_MANIFEST, 'utf8')) as {
    parameters?: { name: string; secure?: boolean }[];
  };
  return (manifest.parameters ?? []).filter((p) => p.secure === true).map((p) => p.name);
}

export function parseMainConfig(env: NodeJS.ProcessEnv): MainConfig {
  const parsed = ZMainEnv.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid zendesk-sandbox configuration: ${problems}`);
  }
  const e = parsed.data;
  const installation = {
    settings: e.ZENDESK_SANDBOX_APP_SETTINGS,
    secureSettingNames: secureSettingNames(),
  };
  const appDir = e.ZENDESK_SANDBOX_APP_DIR ?? DEFAULT_APP_DIR;
  let workspace: WorkspaceOptions = { installation };
  if (e.ZENDESK_SANDBOX_ZCLI_URL)
    workspace = { app: { zcliUrl: e.ZENDESK_SANDBOX_ZCLI_URL }, installation };
  else if (existsSync(appDir)) workspace = { app: { dir: appDir }, installation };
  return {
    port: e.ZENDESK_SANDBOX_PORT,
    host: e.ZENDESK_SANDBOX_HOST,
    publicUrl:
      e.ZENDESK_SANDBOX_PUBLIC_URL ??
      (e.ZENDESK_SANDBOX_PORT === 0 ? undefined : `http://localhost:${e.ZENDESK_SANDBOX_PORT}`),
    redirectUris: e.ZENDESK_SANDBOX_REDIRECT_URIS,
    searchLagMs: e.ZENDESK_SANDBOX_SEARCH_LAG_MS,
    workspace,
    stateFile:
      e.ZENDESK_SANDBOX_DATA_FILE ??
      (e.SANDBOX_STATE_DIR ? path.join(e.SANDBOX_STATE_DIR, 'zendesk.json') : undefined),
  };
}
