import { cpus, loadavg, totalmem } from 'node:os';
import { Redis } from 'ioredis';
import { withPg } from './systems/pg-admin.ts';

export interface Machine {
  readonly startedAt: string;
  readonly note: string;
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly postgres?: string;
  readonly redis?: string;
  readonly loadAtStart: readonly number[];
}

/** What the numbers were measured on: they swing with the box and with what else runs on it. */
export async function describeMachine(urls: { pg: string; redis: string }): Promise<Machine> {
  const postgres =
    urls.pg === ''
      ? undefined
      : await withPg(
          urls.pg,
          async (c) =>
            (await c.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]
              ?.v,
        );
  let redis: string | undefined;
  if (urls.redis !== '') {
    const client = new Redis(urls.redis);
    redis = /redis_version:(\S+)/.exec(await client.info('server'))?.[1];
    client.disconnect();
  }
  const cpuModel = cpus()[0]?.model.trim() ?? 'unknown cpu';
  const memoryGiB = Math.round(totalmem() / 2 ** 30);
  const loadAtStart = loadavg().map((l) => Math.round(l * 100) / 100);
  const parts = [
    `${cpus().length} × ${cpuModel}`,
    `${memoryGiB} GiB`,
    `Node ${process.version}`,
    ...(postgres === undefined ? [] : [`PostgreSQL ${postgres}`]),
    ...(redis === undefined ? [] : [`Redis ${redis}`]),
    `load average at start ${loadAtStart.join(' / ')}`,
  ];
  return {
    startedAt: new Date().toISOString(),
    note: parts.join(', '),
    cpus: cpus().length,
    cpuModel,
    memoryGiB,
    node: process.version,
    ...(postgres === undefined ? {} : { postgres }),
    ...(redis === undefined ? {} : { redis }),
    loadAtStart,
  };
}
