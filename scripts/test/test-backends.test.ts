// Which test files a PostgreSQL-only pass runs: those that can reach PostgreSQL, and only in that
// pass; a run with PGlite, or with every backend, runs the include patterns as they are.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { includeForBackends, postgresOnlyPass, testBackends } from '../test-backends';

describe('testBackends', () => {
  const url = 'postgres://postgres@127.0.0.1:5432/test';
  it('is PGlite, and PostgreSQL when DATABASE_URL is set, narrowed by TEST_BACKENDS', () => {
    expect(testBackends({})).toEqual(['pglite']);
    expect(testBackends({ DATABASE_URL: url })).toEqual(['pglite', 'postgres']);
    expect(testBackends({ DATABASE_URL: url, TEST_BACKENDS: 'postgres' })).toEqual(['postgres']);
    // a backend the run cannot reach is not taken for being named
    expect(testBackends({ TEST_BACKENDS: 'postgres' })).toEqual([]);
  });
});

describe('includeForBackends', () => {
  let dir: string;
  const include = ['src/**/*.test.ts', 'test/**/*.test.ts'];

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'incident-desk-pg-pass-'));
    const files: Record<string, string> = {
      'test/each-backend.test.ts': "describe.each(backends)('on %s', () => {});",
      'test/processes.test.ts': 'const url = process.env.DATABASE_URL;',
      'test/pure.test.ts': "it('formats a note', () => {});",
      'test/pglite-only.test.ts': "startHarness('pglite'); // no backend list",
      'src/unit.test.ts': "it('parses', () => {});",
      'test/helper.ts': 'export const backends = [];',
      'node_modules/dep/test/x.test.ts': 'backends',
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the patterns when PGlite runs, or every backend', () => {
    for (const env of [{}, { TEST_BACKENDS: 'pglite' }, { TEST_BACKENDS: 'pglite,postgres' }]) {
      expect(postgresOnlyPass(env)).toBe(false);
      expect(includeForBackends(dir, include, env)).toBe(include);
    }
  });

  it('in a PostgreSQL-only pass, lists the test files that take a backend or DATABASE_URL', () => {
    const env = { TEST_BACKENDS: 'postgres' };
    expect(postgresOnlyPass(env)).toBe(true);
    expect(includeForBackends(dir, include, env)).toEqual([
      'test/each-backend.test.ts',
      'test/processes.test.ts',
    ]);
  });
});
