import { z } from 'zod';
import type { WorkspaceDeps } from '../workspace-deps';

/** Where the sidebar app comes from: a built app folder (manifest.json + assets/) or a running `zcli apps:server`. */
const ZWorkspaceApp = z.union([
  z.object({ dir: z.string().min(1) }).strict(),
  z.object({ zcliUrl: z.url() }).strict(),
]);
export type TWorkspaceApp = z.infer<typeof ZWorkspaceApp>;

/** The installation of the app on the account, as an admin would configure it in Zendesk. */
const ZWorkspaceInstallation = z
  .object({
    /** Overrides the app id (zcli's app.json carries one; a folder app defaults to 1). */
    appId: z.union([z.number(), z.string()]).optional(),
    /** Setting values; for zcli apps they are merged over the installation settings of `/app.json`. */
    settings: z.record(z.string(), z.unknown()).default({}),
    /** Names of settings that are `secure: true`; a folder app's manifest parameters are added to these. */
    secureSettingNames: z.array(z.string()).default([]),
  })
  .strict();
export type TWorkspaceInstallation = z.infer<typeof ZWorkspaceInstallation>;

export const ZWorkspaceOptions = z.object({
  app: ZWorkspaceApp.optional(),
  installation: ZWorkspaceInstallation.default({ settings: {}, secureSettingNames: [] }),
  /**
   * Origin the built app folder is served from. Default: the other loopback name than the page's
   * (localhost <-> 127.0.0.1) so the app runs cross-origin as in Zendesk; otherwise the page's own origin.
   */
  appOrigin: z.url().optional(),
  /** Where `?zcli_apps=true` on a ticket page loads the app from, as the real agent workspace does. */
  zcliUrl: z.url().default('http://localhost:4567'),
  /** Timeout of `client.request` proxying when the app gives none. */
  proxyTimeoutMs: z.number().int().positive().default(30_000),
  /** Keep-alive comment interval of the ticket event stream. */
  heartbeatMs: z.number().int().positive().default(15_000),
  /** Largest file the ticket form accepts (Zendesk's attachment limit), and files per comment. */
  maxUploadBytes: z
    .number()
    .int()
    .positive()
    .default(50 * 1024 * 1024),
  maxUploadFiles: z.number().int().positive().default(10),
  /** Open host-page sessions kept; the oldest is forgotten first. */
  maxSessions: z.number().int().positive().default(500),
});
export type TWorkspaceOptions = z.infer<typeof ZWorkspaceOptions>;
export type WorkspaceOptions = z.input<typeof ZWorkspaceOptions> & {
  /** Injectable for tests; defaults to the global fetch. */
  fetch?: typeof fetch;
};

export type TWorkspaceRouterInput = WorkspaceDeps & WorkspaceOptions;
