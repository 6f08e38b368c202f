import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { configInvalid } from '@berth/core';
import { createDashboard } from './create-dashboard.js';
import type { DashboardOptions } from './options.js';
import { isLoopbackHost } from './security/loopback.js';

export interface ServeDashboardOptions extends DashboardOptions {
  /** Default 0: any free port (read it from `port` or `url` of the answer). */
  readonly port?: number;
  /** Default `127.0.0.1`. Any other than a loopback address needs `auth`. */
  readonly host?: string;
}

export interface ServedDashboard {
  /** Where it listens, e.g. `http://127.0.0.1:4100/`, with the base path. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  readonly server: Server;
  /** Stops listening and the sampler. The driver stays open: it is the caller's. */
  close(): Promise<void>;
}

/**
 * The dashboard on a server of its own: what `berth dashboard` runs. Without `auth` it binds
 * only to a loopback address, and the dashboard itself accepts only loopback requests.
 */
export async function serveDashboard(options: ServeDashboardOptions): Promise<ServedDashboard> {
  const host = options.host ?? '127.0.0.1';
  if (options.auth === undefined && !isLoopbackHost(host)) {
    throw configInvalid({
      option: 'host',
      reason: `is ${JSON.stringify(host)}: without auth the dashboard binds only to a loopback address (127.0.0.1, ::1, localhost); pass auth to serve it on other addresses`,
      allowed: 'must be a loopback address (127.0.0.1, ::1, localhost) unless auth is given',
      example:
        "serveDashboard({ driver, host: '0.0.0.0', auth: basicAuth({ username, password }) })",
    });
  }
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw configInvalid({
      option: 'port',
      reason: 'must be an integer from 0 to 65535',
      example: 'serveDashboard({ driver, port: 4000 })',
    });
  }
  const dashboard = createDashboard(options);
  const server = createServer(dashboard);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = (server.address() as AddressInfo).port;
  const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  return {
    url: `http://${shown}:${bound}${basePath}/`,
    host,
    port: bound,
    server,
    close: async () => {
      dashboard.close();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) =>
        server.close((error) => (error ? reject(error) : resolve())),
      );
    },
  };
}
