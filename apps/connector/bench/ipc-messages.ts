// What the benchmark and the server under test say to each other over the fork IPC channel.
import { z } from 'zod';

export const ZServerConfig = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('baseline'), secret: z.string() }),
  z.object({
    kind: z.literal('connector'),
    secret: z.string(),
    accountId: z.string(),
    subscriptionId: z.string(),
    backend: z.enum(['postgres', 'pglite']),
    databaseUrl: z.string().optional(),
    pgliteDir: z.string().optional(),
  }),
]);
export type TServerConfig = z.infer<typeof ZServerConfig>;

export const ZParentMessage = z.discriminatedUnion('type', [
  /** A measured run starts: server-side figures accumulate until the next pause. */
  z.object({ type: z.literal('resume') }),
  z.object({ type: z.literal('pause') }),
  z.object({ type: z.literal('stop') }),
]);
export type TParentMessage = z.infer<typeof ZParentMessage>;

const ZServerStats = z.object({
  cpuPercent: z.number(),
  eventLoopUtilization: z.number(),
  /** Connector only: the inbox's transactions in the measured window. */
  transactions: z.number().optional(),
  acceptedWrites: z.number().optional(),
  failedWrites: z.number().optional(),
  /** Share of the window during which an inbox transaction held its connection. */
  transactionBusyPercent: z.number().optional(),
  meanTransactionMs: z.number().optional(),
  /** Mean time per transaction spent in each statement (the rest is waiting between them). */
  meanStatementMs: z
    .object({
      begin: z.number(),
      receipts: z.number(),
      jobs: z.number(),
      commit: z.number(),
      other: z.number(),
    })
    .optional(),
  maxInFlight: z.number().optional(),
});
export type TServerStats = z.infer<typeof ZServerStats>;

export const ZChildMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), url: z.string() }),
  z.object({ type: z.literal('stopped'), stats: ZServerStats }),
  z.object({ type: z.literal('failed'), error: z.string() }),
]);
export type TChildMessage = z.infer<typeof ZChildMessage>;
