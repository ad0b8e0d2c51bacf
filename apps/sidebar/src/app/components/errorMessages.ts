import type { ConnectorError } from '../api/connectorErrors';
import type { TranslationKey } from '../lib/i18n';

/** Translation key (and variables) for every typed connector error. */
export function errorMessage(error: ConnectorError): {
  key: TranslationKey;
  vars?: Record<string, number>;
} {
  switch (error.kind) {
    case 'retry_later':
      if (error.cause)
        return error.retryAfterSeconds !== undefined
          ? { key: `errors.${error.cause}_in`, vars: { count: error.retryAfterSeconds } }
          : { key: `errors.${error.cause}` };
      return error.retryAfterSeconds !== undefined
        ? { key: 'errors.retry_later_in', vars: { seconds: error.retryAfterSeconds } }
        : { key: 'errors.retry_later' };
    case 'http':
      return { key: 'errors.http', vars: { status: error.status } };
    default:
      return { key: `errors.${error.kind}` };
  }
}
