// docs/configuration.md is the one list of the connector's variables: this holds it to the code
// (config-env.ts), so a variable added, renamed or given another default cannot leave it behind.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ZEnv } from '../src/config/config-env';
import { DEFAULT_HTTP_LIMITS } from '../src/http/http-server';

const reference = readFileSync(
  path.resolve(import.meta.dirname, '../../../docs/configuration.md'),
  'utf8',
);

/** The rows of the "Connector" section's table: each variable named in a row, with its Default cell. */
function connectorRows(): Map<string, string> {
  const section = reference.split(/^## /m).find((part) => part.startsWith('Connector\n'));
  if (!section) throw new Error('docs/configuration.md has no "## Connector" section');
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    if (cells.length < 4 || !cells[1]!.startsWith('`')) continue;
    for (const name of cells[1]!.matchAll(/`([A-Z0-9_<>]+)`/g)) rows.set(name[1]!, cells[2]!);
  }
  return rows;
}

describe('docs/configuration.md, the configuration reference', () => {
  const rows = connectorRows();
  const variables = Object.keys(ZEnv.shape);
  const defaults = ZEnv.parse({}) as Record<string, unknown>;

  it('lists every variable the connector reads, and only those', () => {
    expect(variables.filter((name) => !rows.has(name))).toEqual([]);
    const listed = [...rows.keys()].filter((name) => name !== '<NAME>_FILE');
    expect(listed.filter((name) => !variables.includes(name))).toEqual([]);
  });

  it('gives each variable the default the code applies', () => {
    const wrong = variables
      .filter((name) => defaults[name] !== undefined)
      .filter((name) => !rows.get(name)?.includes(`\`${String(defaults[name])}\``))
      .map((name) => `${name}: ${String(defaults[name])}, not in "${rows.get(name)}"`);
    expect(wrong).toEqual([]);
    expect(rows.get('HTTP_MAX_CONNECTIONS_PER_CLIENT')).toContain(
      `\`${DEFAULT_HTTP_LIMITS.maxConnectionsPerClient}\``,
    );
  });
});
