import type { Express } from 'express';
import { createWorkspaceRouter, type WorkspaceOptions } from './workspace';
import type { WorkspaceDeps } from './workspace-deps';

/** The agent-workspace host page (src/workspace/) at /agent; `/_z/<sub>/agent/...` arrives here prefix-stripped. */
export function mountWorkspace(app: Express, deps: WorkspaceDeps, options: WorkspaceOptions): void {
  app.use('/agent', createWorkspaceRouter({ ...options, ...deps }));
}
