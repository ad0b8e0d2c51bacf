// One address in front of several connector instances, as a load balancer would be: each request
// goes, bytes and headers untouched, to the next instance in turn. Counts what each one received.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RoundRobinProxy {
  url: string;
  /** Instances receiving requests from now on, in turn. */
  setTargets(urls: string[]): void;
  /** Requests forwarded to each instance so far, by its URL. */
  forwarded(): Map<string, number>;
  close(): Promise<void>;
}

export async function startRoundRobinProxy(initialTargets: string[]): Promise<RoundRobinProxy> {
  let targets = [...initialTargets];
  let next = 0;
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    if (targets.length === 0) {
      res.writeHead(503).end();
      return;
    }
    const target = new URL(req.url ?? '/', targets[next % targets.length]);
    next += 1;
    counts.set(target.origin, (counts.get(target.origin) ?? 0) + 1);
    const upstream = http.request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setTargets(urls) {
      targets = [...urls];
    },
    forwarded: () => new Map(counts),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
