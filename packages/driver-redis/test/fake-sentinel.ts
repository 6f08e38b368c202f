import { createServer, type Socket } from 'node:net';

/**
 * A stand-in for one Redis Sentinel that a test steers: it names `master` for any name, can hold
 * its answers (a sentinel slow to answer, as on a loaded machine) and can announce a
 * `+switch-master` to its subscribers at the moment the test chooses.
 */
export interface FakeSentinel {
  readonly port: number;
  /** Clients subscribed to +switch-master (ioredis's failover detectors). */
  subscribers(): number;
  /** GET-MASTER-ADDR-BY-NAME asked and not answered yet (held). */
  pending(): number;
  /** From now on GET-MASTER-ADDR-BY-NAME is not answered until `release`. */
  hold(): void;
  /** Answers every held question and answers at once again. */
  release(): void;
  /** Publishes a +switch-master (from the master to itself) to every subscriber. */
  switchMaster(): void;
  close(): Promise<void>;
}

const bulk = (value: string): string => `$${Buffer.byteLength(value)}\r\n${value}\r\n`;
const array = (values: readonly string[], kind = '*'): string =>
  `${kind}${values.length}\r\n${values.map(bulk).join('')}`;

/** Splits RESP arrays of bulk strings (what ioredis sends) off `buffer`; answers the rest. */
function parse(buffer: string, onCommand: (args: string[]) => void): string {
  let rest = buffer;
  for (;;) {
    if (!rest.startsWith('*')) return rest;
    let at = rest.indexOf('\r\n');
    if (at === -1) return rest;
    const count = Number(rest.slice(1, at));
    let cursor = at + 2;
    const args: string[] = [];
    for (let index = 0; index < count; index += 1) {
      at = rest.indexOf('\r\n', cursor);
      if (at === -1) return rest;
      const length = Number(rest.slice(cursor + 1, at));
      if (rest.length < at + 2 + length + 2) return rest;
      args.push(rest.slice(at + 2, at + 2 + length));
      cursor = at + 2 + length + 2;
    }
    rest = rest.slice(cursor);
    onCommand(args);
  }
}

export async function fakeSentinel(master: { host: string; port: number }): Promise<FakeSentinel> {
  const sockets = new Set<Socket>();
  /** Each subscriber, with how a push is marked to it (`>` over RESP3, `*` over RESP2). */
  const subscribed = new Map<Socket, string>();
  const held: Socket[] = [];
  let holding = false;
  const masterReply = array([master.host, String(master.port)]);

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('close', () => {
      sockets.delete(socket);
      subscribed.delete(socket);
    });
    let buffered = '';
    // ioredis 6 asks for RESP3 (HELLO 3): pub/sub messages then come as pushes.
    let push = '*';
    socket.on('data', (chunk: Buffer) => {
      buffered = parse(buffered + chunk.toString('latin1'), (args) => {
        const [command = '', sub = ''] = args.map((arg) => arg.toLowerCase());
        if (command === 'sentinel' && sub === 'get-master-addr-by-name') {
          if (holding) held.push(socket);
          else socket.write(masterReply);
        } else if (command === 'sentinel') {
          // SENTINELS, REPLICAS: no other sentinel, no replica.
          socket.write('*0\r\n');
        } else if (command === 'hello') {
          push = sub === '3' ? '>' : '*';
          socket.write(`%1\r\n${bulk('proto')}:${sub === '3' ? 3 : 2}\r\n`);
        } else if (command === 'subscribe') {
          subscribed.set(socket, push);
          args.slice(1).forEach((channel, index) => {
            socket.write(`${push}3\r\n${bulk('subscribe')}${bulk(channel)}:${index + 1}\r\n`);
          });
        } else {
          socket.write('+OK\r\n');
        }
      });
    });
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address !== null ? address.port : 0);
    });
  });
  return {
    port,
    subscribers: () => subscribed.size,
    pending: () => held.length,
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const socket of held.splice(0)) socket.write(masterReply);
    },
    switchMaster() {
      const where = `${master.host} ${master.port}`;
      const message = ['message', '+switch-master', `berth-set ${where} ${where}`];
      for (const [socket, push] of subscribed) socket.write(array(message, push));
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
