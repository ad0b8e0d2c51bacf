export { createWorkspaceRouter } from './create-workspace-router';
export type { WorkspaceOptions, TWorkspaceRouterInput } from './options';
export { ZWorkspaceOptions, ZWorkspaceApp, ZWorkspaceInstallation } from './options';
