// Disconnecting an account: removing what setup created, checking that the sidebar app is still installed.
// The one door into disconnect/: other folders import only what is exported here.
export { REMOVAL_AUTHORIZE_URL, disconnectAccount } from './disconnect-account';
export { startInstallationChecks } from './installation-check-service';
export { canRemoveNow } from './removal-client';
export { REMOVAL_TOKEN_SECONDS, storeRemovalToken } from './removal-token';
