// Who publishes the app, as its marketplace listing shows it: settings of `npm run package`.
// The author block goes into manifest.json (Zendesk shows it under "App details"); the support and
// privacy addresses and the connector's install page are filled into the listing's texts, whose
// translations hold them as {{support_url}}, {{privacy_url}} and {{connector_url}}.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Publisher {
  authorName: string;
  authorEmail: string;
  authorUrl: string;
  supportUrl: string;
  privacyUrl: string;
}

export type TSettingKind = 'name' | 'email' | 'url';

/** Each setting: its environment variable and what it is. */
export const PUBLISHER_SETTINGS: readonly {
  key: keyof Publisher;
  env: string;
  kind: TSettingKind;
  what: string;
}[] = [
  {
    key: 'authorName',
    env: 'APP_AUTHOR_NAME',
    kind: 'name',
    what: 'the publisher, a person or company (manifest author.name)',
  },
  {
    key: 'authorEmail',
    env: 'APP_AUTHOR_EMAIL',
    kind: 'email',
    what: 'where customers send support requests (manifest author.email)',
  },
  {
    key: 'authorUrl',
    env: 'APP_AUTHOR_URL',
    kind: 'url',
    what: 'a page about the publisher or the app (manifest author.url)',
  },
  {
    key: 'supportUrl',
    env: 'APP_SUPPORT_URL',
    kind: 'url',
    what: 'the support page the listing links to',
  },
  {
    key: 'privacyUrl',
    env: 'APP_PRIVACY_URL',
    kind: 'url',
    what: 'the privacy policy the listing links to',
  },
];

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The repository's stand-in publisher: the root manifest's author (the example domain of a
 * development build), its support and privacy pages under the author's URL.
 */
export function standInPublisher(author: { name: string; email: string; url: string }): Publisher {
  const base = withoutTrailingSlashes(author.url);
  return {
    authorName: author.name,
    authorEmail: author.email,
    authorUrl: author.url,
    supportUrl: `${base}/support`,
    privacyUrl: `${base}/privacy`,
  };
}

/** The publisher from the environment; an unset setting keeps the stand-in's value. */
export function publisherFromEnv(env: Env, standIn: Publisher): Publisher {
  const publisher = { ...standIn };
  for (const { key, env: name } of PUBLISHER_SETTINGS) {
    const value = env[name]?.trim();
    if (value) publisher[key] = value;
  }
  return publisher;
}

/** `text` without its trailing slashes; a loop, since `/\/+$/` is quadratic on a long run of slashes. */
function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '/') end -= 1;
  return text.slice(0, end);
}

/** The connector's public URL as the texts name it: no trailing slash. */
export function connectorBase(connectorUrl: string): string {
  const url = new URL(connectorUrl);
  return `${url.origin}${withoutTrailingSlashes(url.pathname)}`;
}

/**
 * Writes the publisher into a staged app folder: the manifest's author, and the addresses in every
 * locale's marketplace texts. A placeholder the texts use and this does not know is left as is
 * (the package checks refuse it).
 */
export function fillListing(dir: string, publisher: Publisher, connectorUrl: string): void {
  const manifestPath = join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
  manifest.author = {
    name: publisher.authorName,
    email: publisher.authorEmail,
    url: publisher.authorUrl,
  };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);

  const values: Record<string, string> = {
    support_url: publisher.supportUrl,
    privacy_url: publisher.privacyUrl,
    connector_url: connectorBase(connectorUrl),
  };
  const fill = (text: string) =>
    text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => values[name] ?? whole);
  for (const file of readdirSync(join(dir, 'translations')).filter((f) => f.endsWith('.json'))) {
    const path = join(dir, 'translations', file);
    const translation = JSON.parse(readFileSync(path, 'utf8')) as { app?: Record<string, unknown> };
    for (const [key, text] of Object.entries(translation.app ?? {}))
      if (typeof text === 'string') translation.app![key] = fill(text);
    writeFileSync(path, `${JSON.stringify(translation, null, 2)}\n`);
  }
}
