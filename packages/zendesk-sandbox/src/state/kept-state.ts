// A sandbox state kept in a file: locked to this process, loaded into the state (an unusable file
// set aside), then written shortly after each change and a last time on close.
import {
  lockStateFile,
  openStateFile,
  StateFileWriter,
  type TStateFileLock,
} from '@incident-desk/state-file';
import type { SandboxState } from './sandbox-state';
import { parseZendeskSnapshot, restoreSnapshot, snapshotOf } from './state-file-format';

/** What opening the state file found. */
export type TStateFileOutcome =
  | { kind: 'loaded'; file: string }
  /** No file yet: the sandbox starts empty (seed it) and writes one. */
  | { kind: 'created'; file: string }
  /** The file could not be used: moved to `asidePath`, the sandbox starts empty. */
  | { kind: 'set-aside'; file: string; reason: string; asidePath: string };

export interface KeptState {
  outcome: TStateFileOutcome;
  /** Something changed (a request answered): write soon. */
  changed(): void;
  flush(): void;
  /** A last write, then the file is released for another process. */
  close(): void;
}

export function keepStateInFile(
  state: SandboxState,
  file: string,
  options: { delayMs?: number } = {},
): KeptState {
  const lock: TStateFileLock = lockStateFile(file);
  let outcome: TStateFileOutcome;
  try {
    const opened = openStateFile(file, parseZendeskSnapshot);
    if (opened.kind === 'loaded') {
      restoreSnapshot(state, opened.state);
      outcome = { kind: 'loaded', file };
    } else if (opened.kind === 'missing') {
      outcome = { kind: 'created', file };
    } else {
      outcome = { kind: 'set-aside', file, reason: opened.reason, asidePath: opened.asidePath };
    }
  } catch (error) {
    lock.release();
    throw error;
  }
  const writer = new StateFileWriter({
    file,
    serialize: () => JSON.stringify(snapshotOf(state)),
    ...(options.delayMs === undefined ? {} : { delayMs: options.delayMs }),
  });
  state.onChanged(() => writer.changed());
  return {
    outcome,
    changed: () => writer.changed(),
    flush: () => writer.flush(),
    close: () => {
      try {
        writer.close();
      } finally {
        lock.release();
      }
    },
  };
}
