import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_FIDELITY, type IncidentRecord, type SandboxState } from './model';
import { opaqueId } from './ids';

export function emptyState(): SandboxState {
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
}

/** The whole sandbox state in memory, optionally mirrored to a file after every change. */
export class SandboxStore {
  state: SandboxState;
  private readonly clock: () => Date;
  private readonly dataFile: string | undefined;

  constructor(options: StoreOptions) {
    this.clock = options.clock;
    this.dataFile = options.dataFile;
    this.state = emptyState();
  }

  /** True when a data file existed and was loaded. */
  load(): boolean {
    if (!this.dataFile || !existsSync(this.dataFile)) return false;
    const parsed = JSON.parse(readFileSync(this.dataFile, 'utf8')) as SandboxState;
    if (parsed.version !== 1)
      throw new Error(`Unsupported sandbox data file version in ${this.dataFile}`);
    this.state = parsed;
    return true;
  }

  save(): void {
    if (!this.dataFile) return;
    mkdirSync(path.dirname(this.dataFile), { recursive: true });
    const tmp = `${this.dataFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.state));
    renameSync(tmp, this.dataFile);
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
