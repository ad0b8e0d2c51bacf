// What Zendesk's app validation and marketplace review check in a package, checked offline: the
// account-side `zcli apps:validate` stays the final word (it needs an account).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const REQUIRED_TRANSLATIONS = [
  'name',
  'short_description',
  'long_description',
  'installation_instructions',
] as const;
export const SCREENSHOT_SIZE = { width: 1024, height: 768 };
const MAX_IMAGE_BYTES = 500 * 1024;

interface Manifest {
  name?: string;
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

/** Problems that would fail validation or review; empty when the folder is ready to zip. */
export function appPackageProblems(dir: string, options: { marketplace: boolean }): string[] {
  const problems: string[] = [];
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
  const { author } = manifest;
  if (!author?.name || !author.email || !/^[^@\s]+@[^@\s]+$/.test(author.email))
    problems.push('manifest.json: author needs a name and an email');
  if (author?.url !== undefined && !/^https:\/\//.test(author.url))
    problems.push('manifest.json: author.url must be https');
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

  const locales = existsSync(join(dir, 'translations'))
    ? readdirSync(join(dir, 'translations')).filter((f) => f.endsWith('.json'))
    : [];
  if (!locales.includes(`${manifest.defaultLocale ?? 'en'}.json`))
    problems.push(
      `translations/: no ${manifest.defaultLocale ?? 'en'}.json for the default locale`,
    );
  for (const file of locales) {
    const app = (
      JSON.parse(readFileSync(join(dir, 'translations', file), 'utf8')) as {
        app?: Record<string, unknown>;
      }
    ).app;
    for (const key of REQUIRED_TRANSLATIONS)
      if (typeof app?.[key] !== 'string' || (app[key] as string).trim() === '')
        problems.push(`translations/${file}: app.${key} is missing`);
    if (typeof app?.name === 'string' && /zendesk/i.test(app.name))
      problems.push(`translations/${file}: the app's name may not use Zendesk's trademark`);
  }

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
