import { writeFileDurably } from './write-durably';

export interface StateFileWriterOptions {
  file: string;
  /** The whole state as the file's text, called when a write happens. */
  serialize: () => string;
  /** Wait after a change before writing, so a burst of changes makes one write. Default 200 ms. */
  delayMs?: number;
  /** Told of a write after a change that failed; the next change tries again. Default console.error. */
  onError?: (error: unknown) => void;
}

/**
 * Keeps a state file in step with a state held in memory: a write shortly after changes (one for
 * a burst) and one on flush, each durable (writeFileDurably); a state that did not change since
 * the last write is not written again.
 */
export class StateFileWriter {
  readonly file: string;
  private readonly serialize: () => string;
  private readonly delayMs: number;
  private readonly onError: (error: unknown) => void;
  private timer: NodeJS.Timeout | null = null;
  private lastWritten: string | null = null;
  private closed = false;

  constructor(options: StateFileWriterOptions) {
    this.file = options.file;
    this.serialize = options.serialize;
    this.delayMs = options.delayMs ?? 200;
    this.onError =
      options.onError ??
      ((error) => console.error(`could not write ${this.file}: ${String(error)}`));
  }

  /** The state changed: write it soon. */
  changed(): void {
    if (this.closed || this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      try {
        this.write();
      } catch (error) {
        this.onError(error);
      }
    }, this.delayMs);
    // a pending write never keeps a process alive: stopping calls flush()
    this.timer.unref();
  }

  /** Writes the state now if it changed since the last write; throws when the write fails. */
  flush(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.write();
  }

  /** A last flush, then no more writes. */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
  }

  private write(): void {
    const text = this.serialize();
    if (text === this.lastWritten) return;
    writeFileDurably(this.file, text);
    this.lastWritten = text;
  }
}
