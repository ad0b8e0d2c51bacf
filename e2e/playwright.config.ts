import path from 'node:path';
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { stackUrls } from './tests/support/stack-config';
import { chromiumPath } from '../scripts/chromium';

// TEST_REPORT_DIR (set by CI) adds a JSON report that scripts/test-summary.ts adds up.
const reportDir = process.env.TEST_REPORT_DIR;
const reporters: ReporterDescription[] = reportDir
  ? [['list'], ['json', { outputFile: path.resolve(reportDir, 'playwright.json') }]]
  : [['list']];

// One worker: the scenarios share one stack (one connector, one Zendesk account) and the machine
// running CI is small; each test creates its own ticket and incident, so order does not matter.
export default defineConfig({
  testDir: './tests',
  outputDir: './test-results',
  globalSetup: './global-setup.ts',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: reporters,
  use: {
    baseURL: stackUrls.zendesk,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    viewport: { width: 1280, height: 1000 },
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
      ],
    },
  },
  projects: [{ name: 'chromium' }],
});
