import { prefixFor } from '../naming.ts';
import type { FloorRunner, SystemDefinition } from '../systems/types.ts';
import { CLAIM, COMPLETE, ENQUEUE } from './redis-floor-lua.ts';

const BATCH = 1_000;

export const redisFloor: SystemDefinition = {
  name: 'redis-floor',
  role: 'floor',
  server: 'redis',
  workloads: ['burn20k', 'burn100k', 'bulk'],
  settings: 'ioredis, EVALSHA: enqueue 1000 per script; one claim(1000)→complete(ids) loop',
  available: () => true,
  async open(task) {
    const { Redis } = await import('ioredis');
    const redis = new Redis(task.urls.redis);
    const base = `{${prefixFor(task.tag)}}:floor`;
    const jobPrefix = `${base}:job:`;
    const [enqueue = '', claim = '', complete = ''] = await Promise.all(
      [ENQUEUE, CLAIM, COMPLETE].map((lua) => redis.script('LOAD', lua) as Promise<string>),
    );
    const floor: FloorRunner = {
      kind: 'floor',
      async enqueueAll(total) {
        for (let first = 0; first < total; first += BATCH) {
          const count = Math.min(BATCH, total - first);
          const payloads = new Array<string>(count);
          for (let i = 0; i < count; i++) payloads[i] = JSON.stringify({ seq: first + i });
          await redis.evalsha(enqueue, 2, `${base}:seq`, `${base}:ready`, jobPrefix, ...payloads);
        }
        return { helperCpuUs: 0 };
      },
      async processAll(total) {
        let done = 0;
        while (done < total) {
          const got = (await redis.evalsha(
            claim,
            2,
            `${base}:ready`,
            `${base}:running`,
            jobPrefix,
            BATCH,
            Date.now() + 60_000,
          )) as string[];
          if (got.length === 0) throw new Error(`the redis floor ran dry at ${done} of ${total}`);
          const ids: string[] = [];
          for (let i = 0; i < got.length; i += 2) ids.push(got[i] ?? '');
          done += Number(await redis.evalsha(complete, 1, `${base}:running`, jobPrefix, ...ids));
        }
        return { helperCpuUs: 0 };
      },
      close: async () => {
        redis.disconnect();
      },
    };
    return floor;
  },
};
