import { connect } from 'node:net';
import { driverUnavailable } from '@berth/core/driver';

/** Where the driver's connection last reached a server. */
export interface ServerAddress {
  readonly host: string;
  readonly port: number;
}

/**
 * What the server says to a new connection before it is asked anything: a Redis in protected
 * mode writes `-DENIED ...` to a client from another host and hangs up, so ioredis, writing its
 * first command, sees only EPIPE or ECONNRESET. Answers the DENIED text, or undefined.
 */
export function deniedBy(address: ServerAddress, timeoutMs = 1_000): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host: address.host, port: address.port });
    let said = '';
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(said.startsWith('-DENIED') ? said.slice(1).split('\r\n')[0] : undefined);
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes('\r\n')) done();
    });
    socket.once('error', done);
    socket.once('close', done);
  });
}

const DENIED_FIX =
  'the server runs in protected mode and takes commands only from its own host: give it a password ' +
  '(requirepass, or an ACL user) and pass it in the url (redis://:password@host:6379) or as password ' +
  'with sentinels, or bind it to a private address and set protected-mode no there';

/**
 * A DRIVER_UNAVAILABLE saying why the server `hungUp()` names closed the connection before it was
 * ready (the call failed as EPIPE, ECONNRESET or "max retries"), when it says DENIED to a new
 * connection; undefined otherwise.
 */
export async function explainHangUp(
  driver: string,
  operation: string,
  cause: unknown,
  hungUp: (() => ServerAddress | undefined) | undefined,
) {
  // ioredis reports the close a tick after it fails the calls in flight.
  await new Promise((resolve) => setImmediate(resolve));
  const address = hungUp?.();
  if (address === undefined) return undefined;
  const denied = await deniedBy(address);
  if (denied === undefined) return undefined;
  return driverUnavailable({
    driver,
    operation,
    cause,
    detail: `${address.host}:${address.port} refused the connection: ${denied}`,
    fix: DENIED_FIX,
  });
}
