// What a log line is about, carried through async calls: the request id while a request is
// handled, the job id, queue and account while a job runs. Every line logged inside gets these
// fields without each call site passing them.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface LogContext {
  reqId?: string;
  jobId?: string;
  queue?: string;
  accountId?: string;
}

const storage = new AsyncLocalStorage<LogContext>();

/** Runs `work` with `context` added to the current one (inner values win). */
export function withLogContext<T>(context: LogContext, work: () => T): T {
  return storage.run({ ...storage.getStore(), ...context }, work);
}

export function currentLogContext(): LogContext {
  return storage.getStore() ?? {};
}
