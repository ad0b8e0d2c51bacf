// Thousands of hostile requests against every public entry point of the
// composed connector (both sandboxes in-process, two installed accounts). Every answer is a 4xx with
// a readable message and nothing internal; nothing is stored or enqueued; the process stays up and
// its memory flat; an accepted delivery replayed stays one job.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '@incident-desk/incident-api';
import { signZendeskWebhook } from '@incident-desk/zendesk-api';
import {
  fuzzPlan,
  HOSTILE_TEXTS,
  PAYLOAD_MARKER,
  type FuzzPlan,
  type FuzzRequest,
  type FuzzTargets,
} from '../src/fuzz-cases';
import { findLogLeaks } from '../src/log-leaks';
import { gcAvailable, MiB, peakRssSampler, settledMemory } from '../src/memory';
import { writeReportPart } from '../src/report-parts';
import { answerProblems, type Answer } from '../src/response-check';
import { routesOf } from '../src/routes';
import { backends, startChaosStack, type ChaosStack } from '../src/stack';
import { waitForQuiet } from '../src/quiet';

const COUNT = Number(process.env.CHAOS_FUZZ_COUNT ?? 10_000);
const SEED = Number(process.env.CHAOS_SEED ?? 20261121);
const WARM_UP = Math.min(300, Math.ceil(COUNT / 10));
/**
 * After a full GC, the JS heap may differ by what V8 keeps in its code and inline caches and by
 * the agent-check cache (bounded by its 60 s TTL): 16 MiB, far below what a per-request leak of
 * even 2 KiB over 10,000 requests would add (20 MiB). RSS also carries PGlite's WebAssembly memory,
 * which grows to its working set and never shrinks, and malloc arenas: 64 MiB.
 */
const HEAP_TOLERANCE = 16 * MiB;
const RSS_TOLERANCE = 64 * MiB;

/**
 * The answer, or status 0 when the connection was closed instead. Node's HTTP server may reset a
 * connection whose oversized body it refused (413) before the client finished sending it: that is
 * a refusal too, counted apart; on any other request a reset is a failure.
 */
async function send(baseUrl: string, request: FuzzRequest): Promise<Answer & { ms: number }> {
  const started = performance.now();
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${request.path}`, {
      method: request.method,
      headers: request.headers,
      ...(request.body === undefined ? {} : { body: request.body }),
      redirect: 'manual',
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? String(error);
    return {
      status: 0,
      contentType: '',
      body: `connection closed: ${cause}`,
      ms: performance.now() - started,
    };
  }
  const body = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    body,
    ms: performance.now() - started,
  };
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

describe.each(backends)('fuzz on %s', (backend) => {
  let stack: ChaosStack;
  let targets: FuzzTargets;
  let secrets: string[];

  beforeAll(async () => {
    stack = await startChaosStack(backend);
    await waitForQuiet(stack);
    const { a, b } = stack;
    const [subscriptionId] = a.subscriptionIds;
    const [foreignSubscription] = b.subscriptionIds;

    // The deliveries the run replays: accepted once here, before the baseline.
    const incidentBody = JSON.stringify({
      id: `evt_chaos_replay_${backend}`,
      event: 'incident.renamed',
      timestamp: new Date().toISOString(),
      clientId: 'cl_demo_parent',
      data: { incidentId: 'inc_chaos_replay' },
    });
    const incidentHeaders = signWebhook({
      secret: a.incidentSecrets.get(subscriptionId!)!,
      body: incidentBody,
    });
    const ticketingBody = JSON.stringify({
      kind: 'comment',
      ticketId: a.seed.ticketIds[0],
      updatedAt: '2026-11-21T00:00:00Z',
    });
    const ticketingHeaders = {
      'x-zendesk-account-id': String(a.zendeskAccountId),
      ...(signZendeskWebhook({ secret: a.zendeskWebhookSecret, rawBody: ticketingBody })
        .headers as Record<string, string>),
    };
    for (const [path, body, headers] of [
      [`/webhooks/incident?subscription=${subscriptionId}`, incidentBody, incidentHeaders],
      [`/ticketing/webhook?account=${a.accountId}`, ticketingBody, ticketingHeaders],
    ] as const) {
      const response = await fetch(`${stack.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body,
      });
      expect(await response.json()).toEqual({ status: 'accepted' });
    }

    targets = {
      incident: {
        subscriptionId: subscriptionId!,
        secret: a.incidentSecrets.get(subscriptionId!)!,
        foreignSecret: b.incidentSecrets.get(foreignSubscription!)!,
      },
      ticketing: {
        accountId: a.accountId,
        zendeskAccountId: a.zendeskAccountId,
        secret: a.zendeskWebhookSecret,
        foreignSecret: b.zendeskWebhookSecret,
      },
      sidebar: {
        subdomain: a.subdomain,
        installationId: a.installationId,
        foreignSubdomain: b.subdomain,
        foreignInstallationId: b.installationId,
        agentId: a.agent.id,
        foreignAgentId: b.agent.id,
        appKey: stack.zendeskSandbox.state.apps.keyOf(stack.config.sidebar.appId).privateKey,
        publicKeyPem: stack.zendeskSandbox.state.apps.keyOf(stack.config.sidebar.appId)
          .publicKeyPem,
        session: a.sidebarSession,
        ticketId: a.seed.ticketIds[0]!,
      },
      replay: {
        incident: { body: incidentBody, headers: incidentHeaders },
        ticketing: { body: ticketingBody, headers: ticketingHeaders },
      },
      // The admin page's API; the page itself and its sign-in start are public by design.
      adminPaths: routesOf(stack.connector.app)
        .filter((r) => r.path.startsWith('/admin/api/'))
        .map((r) => r.path.replace(/:(\w+)/g, 'x')),
    };
    secrets = await stack.secrets();
    await waitForQuiet(stack);
  }, 180_000);

  afterAll(async () => {
    await stack?.close();
  });

  it(
    `answers ${COUNT} hostile requests with 4xx, stores and enqueues nothing, stays up with flat memory`,
    async () => {
      const run = async (plan: FuzzPlan) => {
        const request = plan(targets, Date.now());
        return { request, answer: await send(stack.url, request) };
      };
      // Warm-up with another seed: JIT, pools and caches reach their steady size before measuring.
      for (const plan of fc.sample(fuzzPlan(), { seed: SEED + 1, numRuns: WARM_UP }))
        await run(plan);
      await waitForQuiet(stack);

      const before = await stack.counts();
      const memoryBefore = await settledMemory();
      const sampler = peakRssSampler();
      const byKind = new Map<string, { sent: number; statuses: Record<string, number> }>();
      const latencies: number[] = [];
      const failures: string[] = [];
      let sent = 0;
      // RSS is measured again halfway: a leak grows it in both halves, while a one-time step (the
      // allocator's arenas, WASM pages and the JIT settling, larger on Node 24) stays in the first.
      let memoryMid: Awaited<ReturnType<typeof settledMemory>> | undefined;
      const started = Date.now();

      const property = fc.assert(
        fc.asyncProperty(fuzzPlan(), async (plan) => {
          const { request, answer } = await run(plan);
          sent += 1;
          if (sent === Math.floor(COUNT / 2)) memoryMid = await settledMemory();
          latencies.push(answer.ms);
          const tally = byKind.get(request.kind) ?? { sent: 0, statuses: {} };
          tally.sent += 1;
          tally.statuses[answer.status] = (tally.statuses[answer.status] ?? 0) + 1;
          byKind.set(request.kind, tally);
          const resetOnOversized =
            answer.status === 0 &&
            request.kind.endsWith('/oversized') &&
            /ECONNRESET|EPIPE/.test(answer.body);
          const problems = resetOnOversized ? [] : answerProblems(answer, secrets, request.expect);
          const counts = await stack.counts();
          if (counts.receipts !== before.receipts || counts.jobs !== before.jobs) {
            problems.push(
              `stored or enqueued: ${JSON.stringify(before)} -> ${JSON.stringify(counts)}`,
            );
          }
          if (problems.length > 0) {
            failures.push(
              `${request.kind} ${request.method} ${request.path.slice(0, 120)}: ${problems.join('; ')} [${answer.status} ${answer.body.slice(0, 200)}]`,
            );
          }
          expect(problems).toEqual([]);
        }),
        { seed: SEED, numRuns: COUNT, endOnFailure: true },
      );
      const propertyError = await property.then(
        () => null,
        (error: unknown) => error,
      );
      const durationMs = Date.now() - started;

      const after = await stack.counts();
      const memoryAfter = await settledMemory();
      const peakRss = sampler.stop();
      const health = await fetch(`${stack.url}/healthz`);
      const logs = stack.logs.lines();
      const secretsInLogs = secrets.filter((s) => logs.some((line) => line.includes(s))).length;
      const unhandled = logs.filter((line) => /unhandled request error/.test(line));
      // No payload text, secret or email in any line; one line per refused webhook.
      const logLeaks = findLogLeaks(logs, [
        ...secrets.map((value) => ({ label: 'a secret or token', value })),
        { label: 'the payload marker', value: PAYLOAD_MARKER },
        ...HOSTILE_TEXTS.filter((value) => value.length >= 12).map((value) => ({
          label: `hostile payload text ${JSON.stringify(value.slice(0, 12))}`,
          value,
        })),
        { label: "the sidebar agent's email", value: stack.a.agent.email },
      ]);
      // one JSON line per refused delivery, naming its status and reason
      const webhookRefusalLines = logs
        .flatMap((chunk) => chunk.split('\n'))
        .filter((line) => {
          let entry: { msg?: string; status?: number; reason?: string };
          try {
            entry = JSON.parse(line) as typeof entry;
          } catch {
            return false;
          }
          return (
            /^(incident|ticketing) webhook refused$/.test(entry.msg ?? '') &&
            typeof entry.status === 'number' &&
            /^\w+$/.test(entry.reason ?? '')
          );
        }).length;
      const webhookRefusals = [...byKind]
        .filter(([kind]) => /^(incident|ticketing)-webhook\//.test(kind))
        .reduce(
          (sum, [, tally]) =>
            sum +
            Object.entries(tally.statuses)
              .filter(([status]) => Number(status) >= 400)
              .reduce((n, [, count]) => n + count, 0),
          0,
        );

      const figures = {
        backend,
        seed: SEED,
        requests: sent,
        warmUp: WARM_UP,
        durationMs,
        requestsPerSecond: Math.round((sent / durationMs) * 1000),
        p50Ms: Number(percentile(latencies, 50).toFixed(1)),
        p99Ms: Number(percentile(latencies, 99).toFixed(1)),
        countsBefore: before,
        countsAfter: after,
        gc: gcAvailable(),
        memory: {
          rssBeforeMiB: +(memoryBefore.rss / MiB).toFixed(1),
          rssMidMiB: memoryMid ? +(memoryMid.rss / MiB).toFixed(1) : null,
          rssAfterMiB: +(memoryAfter.rss / MiB).toFixed(1),
          heapBeforeMiB: +(memoryBefore.heapUsed / MiB).toFixed(1),
          heapAfterMiB: +(memoryAfter.heapUsed / MiB).toFixed(1),
          peakRssMiB: +(peakRss / MiB).toFixed(1),
          toleranceHeapMiB: HEAP_TOLERANCE / MiB,
          toleranceRssMiB: RSS_TOLERANCE / MiB,
        },
        byKind: Object.fromEntries([...byKind].sort(([x], [y]) => x.localeCompare(y))),
        adminCovered: targets.adminPaths.length > 0,
        healthAfter: health.status,
        secretsInLogs,
        logLeaks,
        webhookRefusals,
        webhookRefusalLines,
        unhandledErrors: unhandled.length,
        failures: failures.slice(0, 20),
      };
      writeReportPart(`fuzz-${backend}`, figures);

      expect(failures).toEqual([]);
      expect(propertyError).toBeNull();
      expect(after).toEqual(before);
      expect(health.status).toBe(200);
      expect(unhandled).toEqual([]);
      expect(secretsInLogs).toBe(0);
      expect(logLeaks).toEqual([]);
      expect(webhookRefusalLines).toBeGreaterThanOrEqual(webhookRefusals);
      expect(gcAvailable()).toBe(true);
      expect(memoryAfter.heapUsed - memoryBefore.heapUsed).toBeLessThan(HEAP_TOLERANCE);
      expect(memoryMid).toBeDefined();
      expect(memoryAfter.rss - memoryMid!.rss).toBeLessThan(RSS_TOLERANCE / 2);
    },
    60 * 60_000,
  );

  it('still accepts a real delivery after the run, and a replay of it is one job', async () => {
    const [subscriptionId] = stack.a.subscriptionIds;
    const body = JSON.stringify({
      id: `evt_chaos_after_${backend}`,
      event: 'incident.renamed',
      data: { incidentId: 'inc_chaos_after' },
    });
    const before = await stack.counts();
    const post = () =>
      fetch(`${stack.url}/webhooks/incident?subscription=${subscriptionId}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...signWebhook({ secret: stack.a.incidentSecrets.get(subscriptionId!)!, body }),
        },
        body,
      });
    const first = await post();
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ status: 'accepted' });
    for (let i = 0; i < 5; i++)
      expect(await (await post()).json()).toEqual({ status: 'duplicate' });
    expect(await stack.counts()).toEqual({ receipts: before.receipts + 1, jobs: before.jobs + 1 });
  });
});
