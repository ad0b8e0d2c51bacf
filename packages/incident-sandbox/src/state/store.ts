import {
  lockStateFile,
  openStateFile,
  StateFileWriter,
  type TStateFileLock,
} from '@incident-desk/state-file';
import { DEFAULT_FIDELITY, type IncidentRecord, type SandboxState } from './model';
import { opaqueId } from './ids';
import { parseSandboxState } from './state-file-format';

function emptyState(): SandboxState {
  return {
    version: 1,
    counters: {},
    settings: {
      duplicateResponse: 'conflict',
      omitOptionalPayloadFields: 'sometimes',
      ...DEFAULT_FIDELITY,
    },
    clients: [],
    apiKeys: [],
    incidents: [],
    users: [],
    documents: [],
    webhooks: [],
    deliveries: [],
  };
}

export interface StoreOptions {
  clock: () => Date;
  /** When set, state is loaded from and written to this JSON file so a demo survives a restart. */
  dataFile?: string;
  /** Wait after a change before the file is written (one write for a burst). Default 200 ms. */
  saveDelayMs?: number;
}

/** What opening the data file found. */
export type TDataFileOutcome =
  | { kind: 'loaded'; file: string }
  | { kind: 'created'; file: string }
  /** The file could not be used: moved to `asidePath`, the sandbox starts fresh. */
  | { kind: 'set-aside'; file: string; reason: string; asidePath: string };

/**
 * The whole sandbox state in memory, optionally mirrored to a file: written shortly after changes
 * and on close, durably, and locked to this process while open.
 */
export class SandboxStore {
  state: SandboxState;
  private readonly clock: () => Date;
  private readonly dataFile: string | undefined;
  private readonly writer: StateFileWriter | undefined;
  private lock: TStateFileLock | undefined;

  constructor(options: StoreOptions) {
    this.clock = options.clock;
    this.dataFile = options.dataFile;
    this.state = emptyState();
    if (this.dataFile) {
      this.lock = lockStateFile(this.dataFile);
      this.writer = new StateFileWriter({
        file: this.dataFile,
        serialize: () => JSON.stringify(this.state),
        ...(options.saveDelayMs === undefined ? {} : { delayMs: options.saveDelayMs }),
      });
    }
  }

  /** Loads the data file when there is one; null in memory. An unusable file is set aside. */
  open(): TDataFileOutcome | null {
    if (!this.dataFile) return null;
    const opened = openStateFile(this.dataFile, parseSandboxState);
    if (opened.kind === 'loaded') {
      this.state = opened.state;
      return { kind: 'loaded', file: this.dataFile };
    }
    if (opened.kind === 'missing') return { kind: 'created', file: this.dataFile };
    return {
      kind: 'set-aside',
      file: this.dataFile,
      reason: opened.reason,
      asidePath: opened.asidePath,
    };
  }

  /** The state changed: the data file (if any) is written shortly. */
  changed(): void {
    this.writer?.changed();
  }

  /** Writes the data file now (if any and changed). */
  flush(): void {
    this.writer?.flush();
  }

  /** A last write, then the data file is released for another process. */
  close(): void {
    try {
      this.writer?.close();
    } finally {
      this.lock?.release();
      this.lock = undefined;
    }
  }

  reset(): void {
    this.state = emptyState();
  }

  now(): string {
    return this.clock().toISOString();
  }

  nowMs(): number {
    return this.clock().getTime();
  }

  next(kind: string): number {
    const n = (this.state.counters[kind] ?? 0) + 1;
    this.state.counters[kind] = n;
    return n;
  }

  newId(kind: string, prefix: string, length = 20): string {
    return `${prefix}${opaqueId(kind, this.next(kind), length)}`;
  }

  /** Finds an incident by list id or inc_ reference among the given clients. */
  findIncident(idOrRef: string, clientIds: readonly string[]): IncidentRecord | undefined {
    return this.state.incidents.find(
      (i) => (i.id === idOrRef || i.ref === idOrRef) && clientIds.includes(i.clientId),
    );
  }

  client(id: string) {
    return this.state.clients.find((c) => c.id === id);
  }
}
