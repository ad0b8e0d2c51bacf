import { z } from 'zod';

export const ZAppInstallation = z.looseObject({
  id: z.number(),
  app_id: z.number(),
  enabled: z.boolean().optional(),
});
export type TAppInstallation = z.infer<typeof ZAppInstallation>;

export const ZAppInstallationsResponse = z.looseObject({
  installations: z.array(ZAppInstallation),
});
