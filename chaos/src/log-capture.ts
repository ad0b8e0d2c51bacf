// Everything the connector says while a chaos run is going: its `log` option and the console,
// which its error handler and receivers write to. Kept so a run can search it for secrets.
export interface LogCapture {
  log(message: string): void;
  /** Every line captured so far. */
  lines(): string[];
  restore(): void;
}

const METHODS = ['log', 'info', 'warn', 'error', 'debug'] as const;

export function createLogCapture(): LogCapture {
  const captured: string[] = [];
  const originals = METHODS.map((name) => [name, console[name]] as const);
  const text = (args: unknown[]) =>
    args
      .map((arg) =>
        arg instanceof Error
          ? `${arg.stack ?? arg.message}${arg.cause ? ` cause: ${String(arg.cause)}` : ''}`
          : typeof arg === 'string'
            ? arg
            : safeJson(arg),
      )
      .join(' ');
  for (const name of METHODS) {
    console[name] = (...args: unknown[]) => {
      captured.push(text(args));
    };
  }
  // Libraries may write to the streams directly; what they write is kept and still shown.
  const streams = [process.stdout, process.stderr] as const;
  const writes = streams.map((stream) => stream.write.bind(stream));
  streams.forEach((stream, i) => {
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      captured.push(
        typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'),
      );
      return (writes[i] as (...args: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write;
  });
  return {
    log: (message) => captured.push(message),
    lines: () => [...captured],
    restore() {
      for (const [name, original] of originals) console[name] = original;
      streams.forEach((stream, i) => {
        stream.write = writes[i]!;
      });
    },
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
