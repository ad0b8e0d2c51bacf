declare module 'zendesk_app_framework_sdk' {
  import type { ZafClient } from './app/zaf/zafClient';

  const ZAFClient: { init(callback?: (context: unknown) => void): ZafClient | false };
  export default ZAFClient;
}
