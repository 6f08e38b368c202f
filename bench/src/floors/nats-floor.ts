import { prefixFor } from '../naming.ts';
import type { FloorRunner, SystemDefinition } from '../systems/types.ts';

/** Writes in flight at once: enough that the round trip stops being what limits the floor. */
export const NATS_FLOOR_IN_FLIGHT = 1_000;

/** The floor's KV bucket under a run's prefix is `<prefix>_floor` (the clean-up deletes it). */
export const NATS_FLOOR_BUCKET = 'floor';

/**
 * The conditional writes a job needs on JetStream KV, with no queue library in the way: an
 * enqueue is a `create` of the job's key, a claim an `update` at the revision the enqueue got, an
 * ack an `update` at the claim's; `NATS_FLOOR_IN_FLIGHT` jobs in flight at once, each job's claim
 * and ack chained. No index, no watch, no lease: what Berth's driver adds to these is its own.
 */
export const natsFloor: SystemDefinition = {
  name: 'nats-floor',
  role: 'floor',
  server: 'nats',
  workloads: ['burn20k', 'burn100k', 'bulk'],
  settings: `@nats-io/kv, ${NATS_FLOOR_IN_FLIGHT} jobs in flight: enqueue create(key), claim update(key, revision), ack update(key, revision)`,
  available: () => true,
  async open(task) {
    const { connect } = await import('@nats-io/transport-node');
    const { Kvm } = await import('@nats-io/kv');
    const connection = await connect({ servers: task.urls.nats });
    const kv = await new Kvm(connection).create(`${prefixFor(task.tag)}_${NATS_FLOOR_BUCKET}`, {
      history: 1,
    });
    const revisions: number[] = [];
    const key = (seq: number) => `job.${seq}`;
    /** Runs `work(seq)` for every seq below `total`, `NATS_FLOOR_IN_FLIGHT` at a time. */
    const pipelined = async (total: number, work: (seq: number) => Promise<void>) => {
      let next = 0;
      const lane = async () => {
        for (let seq = next++; seq < total; seq = next++) await work(seq);
      };
      await Promise.all(Array.from({ length: Math.min(NATS_FLOOR_IN_FLIGHT, total) }, lane));
    };
    const floor: FloorRunner = {
      kind: 'floor',
      async enqueueAll(total) {
        await pipelined(total, async (seq) => {
          revisions[seq] = await kv.create(key(seq), JSON.stringify({ seq, state: 'ready' }));
        });
        return { helperCpuUs: 0 };
      },
      async processAll(total) {
        await pipelined(total, async (seq) => {
          const claimed = await kv.update(
            key(seq),
            JSON.stringify({ seq, state: 'running' }),
            revisions[seq] ?? 0,
          );
          await kv.update(key(seq), JSON.stringify({ seq, state: 'completed' }), claimed);
        });
        return { helperCpuUs: 0 };
      },
      close: () => connection.close(),
    };
    return floor;
  },
};
