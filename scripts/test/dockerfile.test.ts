// No container engine runs where this project is built, so the Dockerfile is held to what can be
// checked without one: its base is pinned, its install layer is built from the manifests alone
// (every workspace's, before any source), and its build is scripts/release.sh, the same script CI
// runs and smoke-tests; the image runs what that release holds, as a user that cannot change it.
import { existsSync, globSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
const instructions = dockerfile
  .replace(/\\\n\s*/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));

const indexOf = (pattern: RegExp): number => instructions.findIndex((line) => pattern.test(line));

function workspaceManifests(): string[] {
  const { workspaces } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    workspaces: string[];
  };
  return workspaces.flatMap((pattern) => globSync(`${pattern}/package.json`, { cwd: root })).sort();
}

describe('the Dockerfile', () => {
  it('starts from a base pinned by digest, with its tag named beside it', () => {
    const base = /^ARG NODE_IMAGE=(\S+)$/.exec(
      instructions.find((l) => l.startsWith('ARG NODE_IMAGE='))!,
    )?.[1];
    expect(base).toMatch(/^node:24-bookworm-slim@sha256:[0-9a-f]{64}$/);
    expect(
      instructions
        .filter((l) => l.startsWith('FROM '))
        .every((l) => /^FROM \$\{NODE_IMAGE\}/.test(l)),
    ).toBe(true);
  });

  it('installs from the lockfile and every workspace manifest before it copies any source', () => {
    const install = indexOf(/^RUN npm ci\b/);
    const sources = indexOf(/^COPY \. \.$/);
    expect(install).toBeGreaterThan(0);
    expect(sources).toBeGreaterThan(install);
    const copiedBefore = instructions
      .slice(0, install)
      .filter((line) => line.startsWith('COPY '))
      .flatMap((line) => line.split(/\s+/).slice(1, -1));
    expect(copiedBefore).toEqual(expect.arrayContaining(['package.json', 'package-lock.json']));
    // the install generates Prisma's client from the schema
    expect(copiedBefore).toContain('prisma/');
    // and the root's preinstall runs its Node check
    expect(copiedBefore).toContain('scripts/check-node.mjs');
    const manifests = workspaceManifests();
    expect(manifests.length).toBeGreaterThan(10);
    for (const manifest of manifests) expect(copiedBefore, manifest).toContain(manifest);
  });

  it('builds with scripts/release.sh and runs what that release holds, as a user without write access, with a health check', () => {
    expect(indexOf(/^RUN scripts\/release\.sh \/release$/)).toBeGreaterThan(
      indexOf(/^COPY \. \.$/),
    );
    const release = readFileSync(path.join(root, 'scripts/release.sh'), 'utf8');
    // the release copies the connector it builds (the Dockerfile runs it)
    expect(release).toMatch(/^services=\(apps\/connector\b/m);
    const cmd = instructions.find((l) => l.startsWith('CMD '))!;
    expect(cmd).toContain('apps/connector/dist/main.js');
    expect(existsSync(path.join(root, 'apps/connector/package.json'))).toBe(true);
    const final = instructions.slice(
      instructions.lastIndexOf(instructions.filter((l) => l.startsWith('FROM ')).at(-1)!),
    );
    expect(final).toContain('COPY --from=build /release/ /app/');
    expect(final).toContain('USER node');
    expect(final.find((l) => l.startsWith('HEALTHCHECK'))).toContain('/readyz');
  });
});
