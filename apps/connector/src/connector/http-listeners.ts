// The connector's listening servers: any number (tests listen on port 0), each closed gently:
// requests in flight get a moment to finish, then the sockets go.
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { ConnectorConfig } from '../config';
import { type ConnectionRefusal, createHttpServer } from '../http';

export interface ListeningConnector {
  url: string;
  close(): Promise<void>;
}

export interface HttpListeners {
  listen(port: number, host?: string): Promise<ListeningConnector>;
  closeAll(): Promise<void>;
}

export function httpListeners(
  app: Express,
  config: ConnectorConfig,
  log: (message: string) => void,
  onRefused?: (reason: ConnectionRefusal) => void,
): HttpListeners {
  const servers = new Set<http.Server>();

  async function closeServer(server: http.Server): Promise<void> {
    servers.delete(server);
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const timer = setTimeout(() => server.closeAllConnections(), 5_000);
    await closed;
    clearTimeout(timer);
  }

  return {
    async listen(port, host = config.host) {
      const server = createHttpServer(app, config.http, { log, onRefused });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      servers.add(server);
      const address = server.address() as AddressInfo;
      const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return { url: `http://${shownHost}:${address.port}`, close: () => closeServer(server) };
    },
    async closeAll() {
      await Promise.all([...servers].map((server) => closeServer(server)));
    },
  };
}
