// Docker and Kubernetes hand secrets over as files: each secret setting may be given as
// <NAME>_FILE, the path of a file holding the value (a trailing newline is not part of it).
import { readFileSync } from 'node:fs';

const SECRET_SETTINGS = [
  'DATABASE_URL',
  'SECRETS_KEYS',
  'ZENDESK_CLIENT_SECRET',
  'METRICS_TOKEN',
] as const;

/** The environment with every `<NAME>_FILE` read into `<NAME>`; `refuse` ends with the problems. */
export function withSecretFiles(
  env: Record<string, string | undefined>,
  refuse: (problems: string[]) => never,
): Record<string, string | undefined> {
  const read: Record<string, string> = {};
  const problems: string[] = [];
  for (const name of SECRET_SETTINGS) {
    const file = env[`${name}_FILE`];
    if (file === undefined || file === '') continue;
    if (env[name] !== undefined && env[name] !== '') {
      problems.push(`${name}, ${name}_FILE: set one of them, not both`);
      continue;
    }
    try {
      read[name] = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      problems.push(`${name}_FILE: cannot read ${file} (${code})`);
    }
  }
  if (problems.length > 0) refuse(problems);
  return { ...env, ...read };
}
