// npm run package: the app's marketplace zip, built offline with zcli's own packager.
//   CONNECTOR_PUBLIC_URL  the production connector (https); the sidebar location points at it
//   APP_AUTHOR_NAME, APP_AUTHOR_EMAIL, APP_AUTHOR_URL, APP_SUPPORT_URL, APP_PRIVACY_URL
//                         the publisher the listing shows (listingPublisher.ts): a marketplace
//                         build refuses any of them missing or a placeholder, and a placeholder
//                         connector URL
//   --private             a private upload: no listing screenshots; unset publisher settings keep
//                         the repository's stand-ins (the root manifest's author)
//   --ci-placeholders     CI only (refused unless CI is set): the marketplace build with the
//                         stand-ins, every other check applied, as incident-desk-<v>-ci-placeholders.zip,
//                         which is not for submission
//   --screenshots <dir>   listing screenshots (default: e2e/artifacts/marketplace, taken by the
//                         Playwright suite; taken now when missing)
// Zendesk's own validation (`zcli apps:validate`) needs an account: it runs when ZENDESK_SUBDOMAIN,
// ZENDESK_EMAIL and ZENDESK_API_TOKEN are set, and is skipped with a notice otherwise.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createAppPkg } from '@zendesk/zcli-apps/dist/lib/package';
import { build } from 'vite';
import {
  appPackageProblems,
  placeholderProblems,
  publisherSettingsProblems,
} from './appPackageChecks';
import { fillListing, publisherFromEnv, standInPublisher } from './listingPublisher';
import { LOGOS } from './renderLogos';
import { packagedManifest } from './zafAppFolder';

const root = fileURLToPath(new URL('..', import.meta.url));
const e2eDir = join(root, '../../e2e');
const { values } = parseArgs({
  options: {
    private: { type: 'boolean', default: false },
    'ci-placeholders': { type: 'boolean', default: false },
    screenshots: { type: 'string', default: join(e2eDir, 'artifacts/marketplace') },
  },
});

function fail(message: string): never {
  console.error(`package: ${message}`);
  process.exit(1);
}

function runsInCi(value: string | undefined): boolean {
  return value !== undefined && !['', '0', 'false'].includes(value.trim().toLowerCase());
}

const connectorUrl = process.env.CONNECTOR_PUBLIC_URL;
if (!connectorUrl || !connectorUrl.startsWith('https://'))
  fail(
    'set CONNECTOR_PUBLIC_URL to the production connector (https://...): Zendesk loads the sidebar from it',
  );
const ciPlaceholders = values['ci-placeholders'];
if (ciPlaceholders && !runsInCi(process.env.CI))
  fail(
    '--ci-placeholders is for CI only (CI is not set): a marketplace package needs the real ' +
      'publisher (APP_AUTHOR_NAME, APP_AUTHOR_EMAIL, APP_AUTHOR_URL, APP_SUPPORT_URL, APP_PRIVACY_URL)',
  );
if (ciPlaceholders && values.private)
  fail('--ci-placeholders builds the marketplace package: drop --private');
const settingProblems = publisherSettingsProblems(process.env, {
  requireReal: !values.private && !ciPlaceholders,
});
if (settingProblems.length > 0)
  fail(
    `the publisher settings would make a listing Zendesk refuses:\n  ${settingProblems.join('\n  ')}`,
  );

const dist = join(root, 'dist');
// REUSE_BUILD=1 (CI, which has built the sidebar first): the built folder as it is; its manifest's
// location is set to CONNECTOR_PUBLIC_URL below either way.
if (process.env.REUSE_BUILD === '1' && existsSync(join(dist, 'manifest.json')))
  console.log('package: REUSE_BUILD=1: the sidebar as built in dist/');
else await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn' });
const screenshots = [0, 1, 2].map((index) => join(values.screenshots, `screenshot-${index}.png`));
if (!values.private && !screenshots.every((file) => existsSync(file))) {
  console.log(
    'package: taking the listing screenshots (Playwright: the demo stack on ports 18787-18789, Chromium)',
  );
  // Vite's build above set NODE_ENV=production in this process; the demo stack refuses it
  const { NODE_ENV: _builtFor, ...env } = process.env;
  const run = spawnSync('npx', ['playwright', 'test', 'tests/marketplace-screenshots.spec.ts'], {
    cwd: e2eDir,
    stdio: 'inherit',
    env,
  });
  if (run.status !== 0) fail('the screenshots could not be taken (see above)');
}

// Only what Zendesk reads: the location is the connector's, so the app's code is not in the zip.
const out = join(root, 'package');
const stage = join(out, 'app');
rmSync(stage, { recursive: true, force: true });
mkdirSync(join(stage, 'assets'), { recursive: true });
writeFileSync(
  join(stage, 'manifest.json'),
  packagedManifest(readFileSync(join(dist, 'manifest.json'), 'utf8'), connectorUrl),
);
cpSync(join(dist, 'translations'), join(stage, 'translations'), { recursive: true });
for (const { name } of LOGOS)
  copyFileSync(join(dist, 'assets', `${name}.png`), join(stage, 'assets', `${name}.png`));
if (!values.private)
  screenshots.forEach((file, index) =>
    copyFileSync(file, join(stage, 'assets', `screenshot-${index}.png`)),
  );

const { version, author } = JSON.parse(readFileSync(join(stage, 'manifest.json'), 'utf8')) as {
  version: string;
  author: { name: string; email: string; url: string };
};
fillListing(stage, publisherFromEnv(process.env, standInPublisher(author)), connectorUrl);

const problems = appPackageProblems(stage, {
  marketplace: !values.private,
  allowPlaceholders: ciPlaceholders,
});
if (problems.length > 0) fail(`the package would be refused:\n  ${problems.join('\n  ')}`);
if (ciPlaceholders)
  console.log(
    'package: --ci-placeholders: built with stand-in publisher details, not for submission; a ' +
      `marketplace build would refuse:\n  ${placeholderProblems(stage).join('\n  ')}`,
  );

const suffix = values.private ? '-private' : ciPlaceholders ? '-ci-placeholders' : '';
const zip = join(out, `incident-desk-${version}${suffix}.zip`);
const made = await createAppPkg(stage, '../tmp');
renameSync(made, zip);
rmSync(join(out, 'tmp'), { recursive: true, force: true });
console.log(`package: ${zip}`);

const { ZENDESK_SUBDOMAIN, ZENDESK_EMAIL, ZENDESK_API_TOKEN } = process.env;
if (ZENDESK_SUBDOMAIN && ZENDESK_EMAIL && ZENDESK_API_TOKEN) {
  const check = spawnSync('npx', ['zcli', 'apps:validate', stage], { stdio: 'inherit' });
  if (check.status !== 0) fail(`Zendesk refused the package (${ZENDESK_SUBDOMAIN})`);
} else {
  console.log(
    "package: checked offline; Zendesk's own validation needs an account " +
      '(set ZENDESK_SUBDOMAIN, ZENDESK_EMAIL, ZENDESK_API_TOKEN, or run `npx zcli apps:validate apps/sidebar/package/app`)',
  );
}
