import { z } from 'zod';

/**
 * ISO 8601 UTC timestamp as sent by the service. Read as a plain string (tolerant reader):
 * a slightly different format must not make the resource unreadable.
 */
export const ZTimestamp = z.string();
export type TTimestamp = z.infer<typeof ZTimestamp>;
