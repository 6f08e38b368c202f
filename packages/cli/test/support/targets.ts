import { randomUUID } from 'node:crypto';
import type { Driver, JobError, JobRecord } from '@berth/core';
import { createNatsDriver } from '@berth/driver-nats';
import { createPgDriver, type PgDriver } from '@berth/driver-pg';
import { createRedisDriver } from '@berth/driver-redis';
import { dropNatsPrefix, dropPgSchema, dropRedisPrefix, serverUrl } from '@berth/test-servers';

/** A queue of its own on a real server, the flags that point `berth` at it, and a driver on it. */
export interface Target {
  readonly kind: 'pg' | 'redis' | 'nats';
  readonly url: string;
  /** `--url ... --schema ...` or `--url ... --prefix ...`. */
  readonly flags: readonly string[];
  /** The same namespace as environment variables (BERTH_URL and BERTH_SCHEMA / BERTH_PREFIX). */
  readonly env: Readonly<Record<string, string>>;
  readonly driver: Driver;
  dispose(): Promise<void>;
}

const token = (): string => randomUUID().replaceAll('-', '').slice(0, 16);

/** A fresh pg schema, migrated unless `migrate: false`; dispose drops it. */
export async function pgTarget(
  options: { migrate?: boolean } = {},
): Promise<Target & { driver: PgDriver; schema: string }> {
  const url = await serverUrl('pg');
  const schema = `t_cli_${token()}`;
  const driver = createPgDriver({ connectionString: url, schema });
  if (options.migrate !== false) await driver.migrate();
  return {
    kind: 'pg',
    url,
    schema,
    flags: ['--url', url, '--schema', schema],
    env: { BERTH_URL: url, BERTH_SCHEMA: schema },
    driver,
    async dispose() {
      await driver.close();
      await dropPgSchema(url, schema);
    },
  };
}

/** A fresh redis key prefix; dispose deletes its keys (and only its keys). */
export async function redisTarget(): Promise<Target & { prefix: string }> {
  const url = await serverUrl('redis');
  const prefix = `berth-cli-${token()}`;
  const driver = createRedisDriver({ url, prefix });
  return {
    kind: 'redis',
    url,
    prefix,
    flags: ['--url', url, '--prefix', prefix],
    env: { BERTH_URL: url, BERTH_PREFIX: prefix },
    driver,
    async dispose() {
      await driver.close();
      await dropRedisPrefix(url, prefix);
    },
  };
}

/** A fresh NATS prefix (its own buckets); dispose deletes the prefix's two streams. */
export async function natsTarget(): Promise<Target & { prefix: string }> {
  const url = await serverUrl('nats');
  const prefix = `berth-cli-${token()}`;
  const driver = createNatsDriver({ servers: url, prefix });
  return {
    kind: 'nats',
    url,
    prefix,
    flags: ['--url', url, '--prefix', prefix],
    env: { BERTH_URL: url, BERTH_PREFIX: prefix },
    driver,
    async dispose() {
      await driver.close();
      await dropNatsPrefix(url, prefix);
    },
  };
}

/** Claims the one ready job of `name` (its own queue keeps other jobs out of the way). */
async function claimOne(driver: Driver, queue: string): Promise<JobRecord & { claimedBy: string }> {
  const [job] = await driver.claim({
    queues: [queue],
    workerId: 'cli-test',
    visibilityTimeoutMs: 60_000,
  });
  if (job === undefined) throw new Error(`nothing to claim in ${queue}`);
  return job;
}

const BOOM: JobError = {
  code: 'SMTP_DOWN',
  message: 'connect ECONNREFUSED 10.0.0.1:25',
  stack: 'Error: connect ECONNREFUSED 10.0.0.1:25\n    at send (mailer.ts:42:11)',
};

/**
 * A dead job: enqueued with one attempt, claimed, its `steps` written in order, then failed
 * with `BOOM` as its last error.
 */
export async function deadJob(
  driver: Driver,
  input: {
    name: string;
    steps?: readonly string[];
    idempotencyKey?: string;
    logs?: readonly string[];
  },
): Promise<JobRecord> {
  const queue = `q-${token()}`;
  const { id } = await driver.enqueue({
    name: input.name,
    queue,
    maxAttempts: 1,
    payload: { for: input.name },
    ...(input.idempotencyKey === undefined ? {} : { idempotencyKey: input.idempotencyKey }),
  });
  const job = await claimOne(driver, queue);
  const fence = { jobId: id, workerId: job.claimedBy, claim: job.claim };
  for (const [index, step] of (input.steps ?? []).entries()) {
    const at = driver.clock.now();
    await driver.steps.put(
      {
        runId: job.runId,
        name: step,
        status: 'completed',
        output: { step: index },
        attempts: 1,
        startedAt: at,
        updatedAt: at,
      },
      fence,
    );
  }
  if (input.logs !== undefined && input.logs.length > 0) {
    const at = driver.clock.now();
    const lines = input.logs.map((message) => ({ at, level: 'info' as const, message }));
    await driver.logs.append(fence, { from: 0, lines });
  }
  await driver.nack(fence, { error: BOOM });
  const dead = await driver.get(id);
  if (dead?.state !== 'dead') throw new Error(`job ${id} is ${dead?.state}, not dead`);
  return dead;
}

/** A completed job (claimed and acked now). */
export async function completedJob(driver: Driver, name: string): Promise<string> {
  const queue = `q-${token()}`;
  const { id } = await driver.enqueue({ name, queue });
  const job = await claimOne(driver, queue);
  await driver.ack(
    { jobId: id, workerId: job.claimedBy, claim: job.claim },
    { result: { ok: true } },
  );
  return id;
}

export { BOOM };
