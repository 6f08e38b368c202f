import { connect } from 'node:net';

/** One command the server ran, as MONITOR reports it. */
export interface Monitored {
  readonly args: readonly string[];
  /** `lua` for a command a script called, else the client's address. */
  readonly source: string;
}

const LINE = /^\+\d+\.\d+ \[\d+ ([^\]]+)\] (.*)$/;
const ARG = /"((?:[^"\\]|\\.)*)"/g;

/**
 * MONITOR over a plain socket. ioredis' own `monitor()` marks its connection as monitoring only
 * a tick after MONITOR's OK, so on a busy server the lines that arrive in the same read are taken
 * for replies to commands never sent ("Command queue state error", thousands of them).
 */
export function rawMonitor(
  url: string,
  onCommand: (command: Monitored) => void,
): Promise<{ close(): void }> {
  const { hostname, port } = new URL(url);
  const socket = connect({ host: hostname, port: Number(port || 6379) });
  let buffered = '';
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.on('connect', () => socket.write('MONITOR\r\n'));
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      let end = buffered.indexOf('\r\n');
      while (end !== -1) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        end = buffered.indexOf('\r\n');
        if (line === '+OK') {
          resolve({ close: () => socket.destroy() });
          continue;
        }
        const parsed = LINE.exec(line);
        if (parsed === null) continue;
        const args = [...(parsed[2] ?? '').matchAll(ARG)].map((match) =>
          (match[1] ?? '').replace(/\\(.)/g, '$1'),
        );
        onCommand({ args, source: parsed[1] ?? '' });
      }
    });
  });
}
