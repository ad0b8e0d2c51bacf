import { z } from 'zod';

/** ClientStructure: a client account the key may act for. */
export const ZClient = z.looseObject({
  id: z.string(),
  name: z.string(),
  active: z.boolean(),
});
export type TClient = z.infer<typeof ZClient>;
