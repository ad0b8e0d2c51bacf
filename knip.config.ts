import type { KnipConfig } from 'knip';

// `npm run lint:exports`: code nothing uses. Knip's plugins find most entry points themselves
// (package.json scripts and exports, Vite's index.html, Vitest's and Playwright's configs); the
// ones below are what they cannot see: files run by path (benchmarks, scripts, test fixtures a
// test spawns). Executable scripts are listed by name so that the modules they share are checked.
const config: KnipConfig = {
  include: [
    'files',
    'dependencies',
    'devDependencies',
    'unlisted',
    'unresolved',
    'binaries',
    'exports',
    'types',
    'nsExports',
    'nsTypes',
    'duplicates',
  ],
  // a system tool chaos/src/private-postgres.ts runs, not a package
  ignoreBinaries: ['runuser'],
  workspaces: {
    '.': {
      entry: [
        'scripts/{bench,bundle-service,cpu-profile-summary,release-manifest,release-smoke,reset,start,test-summary}.ts',
      ],
    },
    'apps/connector': {
      entry: ['bench/*.bench.ts', 'bench/retention-sizes.ts'],
      ignoreDependencies: [
        // bundled in with @incident-desk/db (scripts/bundle-service.ts), so a production dependency
        'pg-boss',
        // built first: the connector's build copies their dist/ folders
        '@incident-desk/admin',
        '@incident-desk/sidebar',
      ],
    },
    'apps/sidebar': {
      entry: ['scripts/*.ts'],
    },
    'packages/db': {
      entry: ['scripts/*.ts', 'test/fixtures/*.ts'],
    },
    'packages/threat-text': {
      entry: ['bench/*.bench.ts'],
    },
    'packages/zendesk-sandbox': {
      // loaded by the test app's iframe.html
      entry: ['test/fixtures/workspace-app/assets/app.js'],
      ignoreDependencies: [
        // built first: the sandbox's build copies the sidebar's dist/
        '@incident-desk/sidebar',
        // resolved by path (createRequire) for the workspace tests' app folder
        'zendesk_app_framework_sdk',
      ],
    },
    chaos: {
      entry: ['scripts/*.ts'],
    },
    e2e: {
      entry: ['bench/*.bench.ts'],
    },
  },
};

export default config;
