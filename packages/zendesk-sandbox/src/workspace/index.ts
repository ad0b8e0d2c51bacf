export { createWorkspaceRouter } from './create-workspace-router';
export type { WorkspaceOptions } from './options';
