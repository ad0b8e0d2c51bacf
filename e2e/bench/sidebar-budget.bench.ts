// The sidebar's budget: built JavaScript the iframe always loads (every chunk but the
// other locales'), gzip, against 152 KB; and the time from the iframe's navigation to the incident
// detail on screen (the app's `incident-desk:view-ready` mark) on the local stack, median under 600 ms.
// The baseline measured in the same run is the frame's own load event: what the handshake, the
// connector call and the first render add on top of fetching the assets. The median of each
// start-up step the app marks (`incident-desk:*`) says where the time goes. Its calls to the
// sandbox are tried again on a failed connection; a run that cannot finish prints what it measured
// (`verdict` undecided, exit 2).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import {
  progress,
  runBenchmark,
  waitingFor,
  whileProgressing,
  withRetriedMethods,
  type BenchmarkRun,
} from '../../scripts/bench-support';
import globalSetup from '../global-setup';
import { stackUrls } from '../tests/support/stack-config';
import { createTicket, incidentIdOf, updateTicket } from '../tests/support/zendesk-sandbox';
import { chromiumPath } from '../../scripts/chromium';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const BUNDLE_BUDGET_KB = 152;
const LOAD_BUDGET_MS = 600;
/** How long the connector may take to link the ticket, and a load to show the detail. */
const LINK_WAIT_MS = 180_000;
const VIEW_READY_WAIT_MS = 120_000;
const zendesk = withRetriedMethods({ createTicket, incidentIdOf, updateTicket }, 'sandbox control');
const assets = fileURLToPath(new URL('../../apps/sidebar/dist/assets/', import.meta.url));
const translations = fileURLToPath(
  new URL('../../apps/sidebar/src/translations/', import.meta.url),
);

/**
 * Every chunk an English-speaking agent's iframe loads: the entry script of iframe.html and, from
 * there, every chunk it imports (the UI chunk at once, the dialogs' chunk after the first view).
 * Only the other locales' chunks are left out: they load for those agents alone, instead of
 * English. Followed from the page, so a stale file in the folder is never counted.
 */
function alwaysLoadedGzipKb(): { files: string[]; kb: number } {
  const html = readFileSync(path.join(assets, 'iframe.html'), 'utf8');
  const entries = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)].map((m) =>
    path.basename(m[1]!),
  );
  if (entries.length === 0) throw new Error('iframe.html loads no script: is the sidebar built?');
  const otherLocales = new Set(
    readdirSync(translations)
      .filter((file) => file.endsWith('.json') && file !== 'en.json')
      .map((file) => file.replace(/\.json$/, '')),
  );
  const files: string[] = [];
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (files.includes(file) || otherLocales.has(file.replace(/-[\w-]+\.js$/, ''))) continue;
    files.push(file);
    const code = readFileSync(path.join(assets, file), 'utf8');
    for (const m of code.matchAll(/["'`]\.\/([\w-]+\.js)["'`]/g)) queue.push(m[1]!);
  }
  const bytes = files.reduce(
    (sum, file) => sum + gzipSync(readFileSync(path.join(assets, file))).length,
    0,
  );
  return { files, kb: bytes / 1024 };
}

async function linkedTicketId(): Promise<number> {
  const ticketId = await zendesk.createTicket('Budget benchmark', 'https://budget.example/login');
  await zendesk.updateTicket(ticketId, { additional_tags: ['incident_submit'] });
  const linked = await whileProgressing({
    what: `ticket ${ticketId} linked by the connector`,
    probe: async () => ({ done: Boolean(await zendesk.incidentIdOf(ticketId)), count: 0, of: 1 }),
    stallMs: LINK_WAIT_MS,
  });
  if (!linked) throw new Error(`the connector did not link ticket ${ticketId}`);
  return ticketId;
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Loads {
  viewReady: number[];
  frameLoad: number[];
  /** Where the time goes: each start-up step the app marks, as time since the frame's navigation. */
  stages: Record<string, number[]>;
}

async function measureLoad(browser: Browser, ticketId: number, loads: Loads): Promise<void> {
  const context = await browser.newContext(); // cold cache, as an agent's first open
  try {
    const page = await context.newPage();
    await page.goto(`${stackUrls.zendesk}/agent/tickets/${ticketId}`);
    const frame = await (await page.waitForSelector('#zaf-app-frame')).contentFrame();
    if (!frame) throw new Error('no sidebar frame');
    await frame.waitForFunction(
      () => performance.getEntriesByName('incident-desk:view-ready').length > 0,
      null,
      { timeout: VIEW_READY_WAIT_MS },
    );
    const timing = await frame.evaluate(() => ({
      ready: performance.getEntriesByName('incident-desk:view-ready')[0]!.startTime,
      load: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming)
        .loadEventEnd,
      stages: performance
        .getEntriesByType('mark')
        .filter((mark) => mark.name.startsWith('incident-desk:'))
        .map((mark) => [mark.name.slice('incident-desk:'.length), mark.startTime] as const),
    }));
    loads.viewReady.push(timing.ready);
    loads.frameLoad.push(timing.load);
    for (const [stage, at] of timing.stages) (loads.stages[stage] ??= []).push(at);
  } finally {
    await context.close();
  }
}

function loadFigures(loads: Loads) {
  const ready = median(loads.viewReady);
  const load = median(loads.frameLoad);
  return {
    runs: loads.viewReady.length,
    medianViewReadyMs: Math.round(ready),
    maxViewReadyMs: Math.round(Math.max(...loads.viewReady)),
    medianFrameLoadMs: Math.round(load),
    viewReadyToFrameLoadRatio: Number((ready / load).toFixed(2)),
    stagesMedianMs: Object.fromEntries(
      Object.entries(loads.stages)
        .map(([stage, times]) => [stage, Math.round(median(times))] as const)
        .sort((a, b) => a[1] - b[1]),
    ),
    goal: `< ${LOAD_BUDGET_MS} ms`,
    met: ready < LOAD_BUDGET_MS,
  };
}

async function measureLoads(run: BenchmarkRun): Promise<ReturnType<typeof loadFigures>> {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  });
  try {
    run.stage('linking a ticket');
    const ticketId = await linkedTicketId();
    const loads: Loads = { viewReady: [], frameLoad: [], stages: {} };
    run.measured('load', () => (loads.viewReady.length > 0 ? loadFigures(loads) : null));
    run.stage('loading the sidebar');
    const loading = progress.doing(
      () => `sidebar loads: ${loads.viewReady.length} of ${RUNS} done`,
    );
    for (let i = 0; i < RUNS; i += 1) await measureLoad(browser, ticketId, loads);
    loading();
    return loadFigures(loads);
  } finally {
    await browser.close();
  }
}

runBenchmark({
  label: 'sidebar bench',
  scenario: { runs: RUNS, bundleBudgetKb: BUNDLE_BUDGET_KB, loadBudgetMs: LOAD_BUDGET_MS },
  main: async (run) => {
    run.stage('measuring the bundle');
    const bundle = alwaysLoadedGzipKb();
    const bundleFigures = {
      files: bundle.files,
      gzipKb: Number(bundle.kb.toFixed(1)),
      ratioToBudget: Number((bundle.kb / BUNDLE_BUDGET_KB).toFixed(3)),
      goal: `<= ${BUNDLE_BUDGET_KB} KB`,
      met: bundle.kb <= BUNDLE_BUDGET_KB,
    };
    run.measured('bundle', bundleFigures);
    run.stage('starting the local stack');
    // its connector runs on a throw-away embedded database, not on a server the shell names: the
    // stack passes its environment on, and a second run could not open the first one's secrets
    delete process.env.DATABASE_URL;
    const teardown = await waitingFor('the local stack to start', () => globalSetup());
    try {
      const load = await measureLoads(run);
      console.log(`sidebar JS ${bundleFigures.gzipKb} KB gzip (budget ${BUNDLE_BUDGET_KB} KB)`);
      console.log(
        `iframe -> incident detail: median ${load.medianViewReadyMs} ms over ${RUNS} cold loads (frame load ${load.medianFrameLoadMs} ms)`,
      );
      return {
        verdict: bundleFigures.met && load.met ? 'met' : 'not met',
        figures: { bundle: bundleFigures, load },
      };
    } finally {
      await teardown();
    }
  },
});
