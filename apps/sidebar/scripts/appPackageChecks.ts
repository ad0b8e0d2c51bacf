// What Zendesk's app validation and marketplace review check in a package, checked offline: the
// account-side `zcli apps:validate` stays the final word (it needs an account).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { PUBLISHER_SETTINGS, type TSettingKind } from './listingPublisher';

const REQUIRED_TRANSLATIONS = [
  'name',
  'short_description',
  'long_description',
  'installation_instructions',
] as const;
export const SCREENSHOT_SIZE = { width: 1024, height: 768 };
const MAX_IMAGE_BYTES = 500 * 1024;
// "Create content": the app's name is at most 40 characters, spaces included.
const MAX_NAME_LENGTH = 40;
const MAX_ADDRESS_LENGTH = 2048;

/** The domain of `local@domain` (a dot inside the domain, no spaces), or null; no regular expression, so linear. */
function emailDomain(value: string): string | null {
  if (value.length > MAX_ADDRESS_LENGTH || /\s/.test(value)) return null;
  const [local, domain, ...rest] = value.split('@');
  if (!local || !domain || rest.length > 0) return null;
  return domain.slice(1, -1).includes('.') ? domain : null;
}
const UNFINISHED =
  /\b(todo|tbd|fixme|changeme|change[ _-]me|placeholder|lorem ipsum|your[ _-](company|name|email|domain))\b|xxx/i;

/** Hosts no publisher owns: reserved example and test names (RFC 2606, RFC 6761), local ones. */
function placeholderHost(host: string): string | null {
  const name = host
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[|\]$/g, '');
  if (isIP(name) !== 0) return 'an IP address, not a published name';
  if (/(^|\.)example\.(com|net|org)$/.test(name) || /\.(example|test|invalid)$/.test(name))
    return 'a reserved example domain';
  if (name === 'localhost' || /\.(localhost|local|internal)$/.test(name) || !name.includes('.'))
    return 'a local name';
  return null;
}

/**
 * Why a publisher value is a stand-in rather than a real one (null when it looks real): words
 * that mark unfinished text, and addresses on hosts no publisher owns.
 */
export function placeholderReason(value: string, kind: TSettingKind): string | null {
  if (value.trim() === '') return 'empty';
  if (UNFINISHED.test(value)) return 'unfinished text';
  if (kind === 'email') {
    const domain = emailDomain(value);
    return domain ? placeholderHost(domain) : null;
  }
  if (kind === 'url') {
    try {
      return placeholderHost(new URL(value).hostname);
    } catch {
      return null;
    }
  }
  return null;
}

function malformed(value: string, kind: TSettingKind): string | null {
  if (kind === 'email' && !emailDomain(value)) return 'is not an email address';
  if (kind === 'url') {
    try {
      if (new URL(value).protocol !== 'https:') return 'must be an https URL';
    } catch {
      return 'is not a URL';
    }
  }
  return null;
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The package command's publisher settings, each named by its variable. `requireReal` (a
 * marketplace build) refuses a missing setting and a stand-in, the connector's URL included;
 * otherwise an unset setting keeps the repository's stand-in, and only a malformed one is refused.
 */
export function publisherSettingsProblems(env: Env, options: { requireReal: boolean }): string[] {
  const problems: string[] = [];
  for (const { env: name, kind, what } of PUBLISHER_SETTINGS) {
    const value = env[name]?.trim();
    if (!value) {
      if (options.requireReal) problems.push(`${name} is not set: ${what}`);
      continue;
    }
    const wrong = malformed(value, kind);
    if (wrong) {
      problems.push(`${name} ${wrong} (${value}): ${what}`);
      continue;
    }
    const reason = options.requireReal ? placeholderReason(value, kind) : null;
    if (reason) problems.push(`${name} is a placeholder, ${reason} (${value}): ${what}`);
  }
  const connector = env.CONNECTOR_PUBLIC_URL?.trim();
  const reason = options.requireReal && connector ? placeholderReason(connector, 'url') : null;
  if (reason)
    problems.push(
      `CONNECTOR_PUBLIC_URL is a placeholder, ${reason} (${connector}): the connector Zendesk loads the sidebar from`,
    );
  return problems;
}

const URL_OR_EMAIL = /https?:\/\/[^\s)"'<>]+|[^\s@()<>"',;:]+@[^\s@()<>"',;]+\.[a-z]{2,}/gi;

/**
 * Stand-ins a marketplace listing may not carry: the manifest's author, the location's host, and
 * every address in the listing's texts (the support and privacy pages, the install page).
 */
export function placeholderProblems(dir: string): string[] {
  const problems: string[] = [];
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const author = manifest.author ?? {};
  for (const [field, kind] of [
    ['name', 'name'],
    ['email', 'email'],
    ['url', 'url'],
  ] as const) {
    const value = author[field];
    const reason = value === undefined ? null : placeholderReason(value, kind);
    if (reason)
      problems.push(`manifest.json: author.${field} is a placeholder, ${reason} (${value})`);
  }
  for (const [product, places] of Object.entries(manifest.location ?? {}))
    for (const [place, { url }] of Object.entries(places)) {
      const reason = url ? placeholderReason(url, 'url') : null;
      if (reason)
        problems.push(`manifest.json: ${product}.${place} is a placeholder, ${reason} (${url})`);
    }
  for (const { file, app } of marketplaceTexts(dir))
    for (const [key, text] of Object.entries(app ?? {})) {
      if (typeof text !== 'string') continue;
      // An address never spans whitespace; matching token by token, each capped, keeps the scan linear.
      const tokens = text.split(/\s+/).filter((token) => token.length <= MAX_ADDRESS_LENGTH);
      for (const [match] of tokens.flatMap((token) => [...token.matchAll(URL_OR_EMAIL)])) {
        const address = match.replace(/[.,;:!?]+$/, '');
        const reason = placeholderReason(address, address.includes('://') ? 'url' : 'email');
        if (reason)
          problems.push(
            `translations/${file}: app.${key} names a placeholder, ${reason} (${address})`,
          );
      }
    }
  return problems;
}

function marketplaceTexts(dir: string): { file: string; app?: Record<string, unknown> }[] {
  const folder = join(dir, 'translations');
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((f) => f.endsWith('.json'))
    .map((file) => ({
      file,
      app: (
        JSON.parse(readFileSync(join(folder, file), 'utf8')) as {
          app?: Record<string, unknown>;
        }
      ).app,
    }));
}

interface Manifest {
  name?: string;
  private?: boolean;
  author?: { name?: string; email?: string; url?: string };
  defaultLocale?: string;
  frameworkVersion?: string;
  location?: Record<string, Record<string, { url?: string; signedUrls?: boolean }>>;
}

export function pngSize(file: string): { width: number; height: number } | null {
  const png = readFileSync(file);
  if (png.length < 24 || png.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * Problems that would fail validation or review; empty when the folder is ready to zip. A
 * marketplace listing may carry no stand-in publisher details unless `allowPlaceholders` (CI's
 * build, which is never submitted).
 */
export function appPackageProblems(
  dir: string,
  options: { marketplace: boolean; allowPlaceholders?: boolean },
): string[] {
  const problems: string[] = [];
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const { author } = manifest;
  if (!author?.name || !author.email || !emailDomain(author.email))
    problems.push('manifest.json: author needs a name and an email');
  if (author?.url !== undefined && !/^https:\/\//.test(author.url))
    problems.push('manifest.json: author.url must be https');
  if (options.marketplace && author && !author.url)
    problems.push('manifest.json: author.url is missing (the listing links to it)');
  if (options.marketplace && manifest.private !== false)
    problems.push('manifest.json: private must be false for a Marketplace listing');
  if (manifest.frameworkVersion !== '2.0')
    problems.push('manifest.json: frameworkVersion must be "2.0"');
  for (const [product, places] of Object.entries(manifest.location ?? {}))
    for (const [place, { url, signedUrls }] of Object.entries(places)) {
      if (!url || !/^https:\/\//.test(url))
        problems.push(
          `manifest.json: ${product}.${place} must load over https (${url ?? 'no url'})`,
        );
      if (signedUrls !== true) problems.push(`manifest.json: ${product}.${place} needs signedUrls`);
    }

  const texts = marketplaceTexts(dir);
  if (!texts.some(({ file }) => file === `${manifest.defaultLocale ?? 'en'}.json`))
    problems.push(
      `translations/: no ${manifest.defaultLocale ?? 'en'}.json for the default locale`,
    );
  for (const { file, app } of texts) {
    for (const key of REQUIRED_TRANSLATIONS)
      if (typeof app?.[key] !== 'string' || (app[key] as string).trim() === '')
        problems.push(`translations/${file}: app.${key} is missing`);
    if (typeof app?.name === 'string' && /zendesk/i.test(app.name))
      problems.push(`translations/${file}: the app's name may not use Zendesk's trademark`);
    if (typeof app?.name === 'string' && app.name.length > MAX_NAME_LENGTH)
      problems.push(`translations/${file}: the app's name is over ${MAX_NAME_LENGTH} characters`);
    for (const [key, text] of Object.entries(app ?? {}))
      for (const [unfilled] of typeof text === 'string' ? text.matchAll(/\{\{[^}]*\}\}/g) : [])
        problems.push(`translations/${file}: app.${key} still holds ${unfilled}`);
  }
  if (options.marketplace && !options.allowPlaceholders) problems.push(...placeholderProblems(dir));

  const images: { file: string; size?: { width: number; height: number } }[] = [
    { file: 'logo.png', size: { width: 320, height: 320 } },
    { file: 'logo-small.png', size: { width: 128, height: 128 } },
  ];
  if (options.marketplace)
    for (const index of [0, 1, 2])
      images.push({ file: `screenshot-${index}.png`, size: SCREENSHOT_SIZE });
  for (const { file, size } of images) {
    const path = join(dir, 'assets', file);
    if (!existsSync(path)) {
      problems.push(`assets/${file} is missing`);
      continue;
    }
    const actual = pngSize(path);
    if (!actual) problems.push(`assets/${file} is not a PNG`);
    else if (size && (actual.width !== size.width || actual.height !== size.height))
      problems.push(
        `assets/${file} is ${actual.width}x${actual.height}, not ${size.width}x${size.height}`,
      );
    if (statSync(path).size > MAX_IMAGE_BYTES) problems.push(`assets/${file} is over 500 KB`);
  }
  return problems;
}
