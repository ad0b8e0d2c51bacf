// The one Chromium every browser test and benchmark drives: Debian's (Playwright's own download
// cannot run here), or CHROMIUM_PATH. A missing browser fails with how to get one, never a skip.
import { existsSync } from 'node:fs';

export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  const executable = env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executable)) {
    throw new Error(
      `Chromium not found at ${executable}: install Debian's chromium package ` +
        '(sudo apt-get install chromium) or set CHROMIUM_PATH to a Chromium executable',
    );
  }
  return executable;
}
