import { z } from 'zod';

/** A number (0 = depleted), `unlimited`, or null = the client does not use credits (not zero). */
export const ZRemainingCredits = z.union([z.number(), z.literal('unlimited'), z.null()]);
export type TRemainingCredits = z.infer<typeof ZRemainingCredits>;

export const ZUsage = z.looseObject({
  clientId: z.string(),
  clientName: z.string(),
  remainingCredits: ZRemainingCredits,
});
export type TUsage = z.infer<typeof ZUsage>;
