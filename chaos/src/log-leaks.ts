// What the connector logged must carry no payload, query parameter, token, key, secret or email
//. A run collects what it sent (secrets it knows, payload markers it wrote into
// deliveries) and this finds any of them, and anything shaped like an email, in the logs.
export interface LogNeedle {
  /** What the value is, for the report (never the value itself). */
  label: string;
  value: string;
}

export interface LogLeak {
  label: string;
  /** The first line it was found in, with the value masked. */
  line: string;
}

const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;

/** Lines the run itself wrote (progress, figures), not the connector. */
const HARNESS_LINE = /^soak: |^chaos: /;

export function findLogLeaks(lines: readonly string[], needles: readonly LogNeedle[]): LogLeak[] {
  const leaks: LogLeak[] = [];
  const scanned = lines
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.trim() !== '' && !HARNESS_LINE.test(line));
  for (const needle of needles) {
    if (needle.value.length < 6) continue;
    const line = scanned.find((l) => l.includes(needle.value));
    if (line) leaks.push({ label: needle.label, line: mask(line, needle.value) });
  }
  const withEmail = scanned.find((l) => EMAIL.test(l));
  if (withEmail)
    leaks.push({ label: 'an email address', line: withEmail.replace(EMAIL, '<email>') });
  return leaks;
}

function mask(line: string, value: string): string {
  return line.split(value).join('<found>').slice(0, 300);
}
