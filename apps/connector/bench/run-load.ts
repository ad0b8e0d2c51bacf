// One autocannon run over a pool of signed events. Each connection sends one request at a time,
// so the response autocannon reports belongs to the event that connection sent last: that is how
// the run knows exactly which events were acknowledged with a 2xx. Latencies are kept one by one
// so several runs of the same target can be merged into exact percentiles.
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import type { SignedEventPool } from './signed-event-pool';

export interface LoadOptions {
  url: string;
  path: string;
  connections: number;
  seconds: number;
  events: SignedEventPool;
}

export interface LoadRun {
  seconds: number;
  /** Milliseconds, one per response received. */
  latencies: number[];
  acknowledgedKeys: string[];
  status4xx: number;
  status5xx: number;
  otherStatus: number;
  errors: number;
  timeouts: number;
  /** Share of the load generator's own event loop in use: near 1 means the client limits the run. */
  loadGeneratorEventLoopUtilization: number;
}

interface ConnectionContext {
  dedupeKey?: string;
}

export async function runLoad(options: LoadOptions): Promise<LoadRun> {
  const acknowledgedKeys: string[] = [];
  const latencies: number[] = [];
  const elu = performance.eventLoopUtilization();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        pipelining: 1,
        duration: options.seconds,
        requests: [
          {
            setupRequest: (request, context) => {
              const event = options.events.next();
              (context as ConnectionContext).dedupeKey = event.dedupeKey;
              return {
                ...request,
                method: 'POST',
                path: options.path,
                headers: event.headers,
                body: event.body,
              };
            },
            onResponse: (status, _body, context) => {
              const key = (context as ConnectionContext).dedupeKey;
              if (status >= 200 && status < 300 && key) acknowledgedKeys.push(key);
            },
          },
        ],
      },
      (error: unknown, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      latencies.push(responseTime);
    });
  });
  if (acknowledgedKeys.length !== result['2xx']) {
    throw new Error(
      `tracked ${acknowledgedKeys.length} acknowledged events but autocannon counted ${result['2xx']} 2xx`,
    );
  }
  return {
    seconds: result.duration,
    latencies,
    acknowledgedKeys,
    status4xx: result['4xx'],
    status5xx: result['5xx'],
    otherStatus: result['1xx'] + result['3xx'],
    errors: result.errors,
    timeouts: result.timeouts,
    loadGeneratorEventLoopUtilization: performance.eventLoopUtilization(elu).utilization,
  };
}
