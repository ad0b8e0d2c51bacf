// The job queues' gauges: jobs per queue and state, and the oldest waiting job's age, read from
// the queue at each scrape (one read serves both).
import { Gauge, type Registry } from 'prom-client';
import { PREFIX, type ConnectorMetrics, type QueueDepthReader } from './metric-types';

export function queueGauges(registry: Registry): Pick<ConnectorMetrics, 'watchQueues'> {
  let queues: QueueDepthReader | undefined;
  const queueJobs = new Gauge({
    name: `${PREFIX}queue_jobs`,
    help: 'Jobs per queue and state (queued, active, deferred), read at each scrape.',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      const depths = await readQueues();
      for (const depth of depths) {
        this.set({ queue: depth.queue, state: 'queued' }, depth.queued);
        this.set({ queue: depth.queue, state: 'active' }, depth.active);
        this.set({ queue: depth.queue, state: 'deferred' }, depth.deferred);
      }
    },
  });
  const oldestJobAge = new Gauge({
    name: `${PREFIX}queue_oldest_job_age_seconds`,
    help: 'Age of the oldest job waiting to run per queue (0 when none waits).',
    labelNames: ['queue'] as const,
    registers: [registry],
    async collect() {
      for (const depth of await readQueues())
        this.set({ queue: depth.queue }, depth.oldestAgeSeconds);
    },
  });
  void queueJobs;
  void oldestJobAge;

  // Both gauges are collected in one scrape: one read serves them.
  let pending: ReturnType<QueueDepthReader['read']> | undefined;
  function readQueues(): ReturnType<QueueDepthReader['read']> {
    if (!queues) return Promise.resolve([]);
    pending ??= queues.read().finally(() => {
      setImmediate(() => (pending = undefined));
    });
    return pending;
  }

  return {
    watchQueues(reader) {
      queues = reader;
    },
  };
}
