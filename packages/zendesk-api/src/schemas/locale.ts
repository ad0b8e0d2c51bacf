import { z } from 'zod';

/**
 * A Support locale. `default` is not among the documented fields, but Zendesk's answers carry it
 * (true on the account's default language); a reader must cope with its absence.
 */
export const ZLocale = z.looseObject({
  id: z.number(),
  locale: z.string(),
  name: z.string().optional(),
  default: z.boolean().optional(),
});
export type TLocale = z.infer<typeof ZLocale>;

export const ZLocalesResponse = z.looseObject({ locales: z.array(ZLocale) });
