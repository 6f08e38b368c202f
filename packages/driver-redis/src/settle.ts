import type {
  AckItem,
  AckOptions,
  Fence,
  NackItem,
  NackOptions,
  SuspendOptions,
} from '@berth/core/driver';
import type { RedisContext } from './context.js';
import { asArray } from './decode.js';
import { SETTLE_LUA } from './lua/generated.js';
import { SETTLE_WIDTH } from './lua/settle.js';
import { defineScript, type ScriptArg } from './scripts.js';

const SETTLE = defineScript('settle', SETTLE_LUA);

type Op = 'ack' | 'nack' | 'suspend' | 'extend';
type Item = readonly [Op, Fence, ...(string | number | undefined)[]];

const flag = (value: boolean | undefined, whenAbsent: string): string =>
  value === undefined ? whenAbsent : value ? '1' : '0';

const ackItem = (fence: Fence, options: AckOptions): Item => [
  'ack',
  fence,
  options.result === undefined ? undefined : JSON.stringify(options.result),
];

/** How the script ends a nack (its a3): a cancel wins over `final`, as it wins over the rest. */
const nackEnding = (options: NackOptions): string =>
  options.cancel === true ? 'cancel' : flag(options.final, '0');

const nackItem = (fence: Fence, options: NackOptions): Item => [
  'nack',
  fence,
  JSON.stringify(options.error),
  options.retryAt,
  nackEnding(options),
  flag(options.deadLetter, '1'),
];

/** The settle script's ARGV after `now`: the count, the items, the lifecycle retention last. */
function argsOf(items: readonly Item[], lifecycleRetention: number): ScriptArg[] {
  const args: ScriptArg[] = [items.length];
  for (const [op, fence, ...rest] of items) {
    args.push(op, fence.jobId, fence.workerId, fence.claim);
    for (let index = 0; index < SETTLE_WIDTH - 4; index += 1) args.push(rest[index] ?? '');
  }
  args.push(lifecycleRetention);
  return args;
}

/** Lands the items in ONE script, in order; answers landed per item. */
async function settle(context: RedisContext, items: readonly Item[]): Promise<boolean[]> {
  const reply = await context.run(
    SETTLE,
    context.clock.now(),
    argsOf(items, context.lifecycleRetention),
  );
  return asArray(reply, 'settle').map((landed) => landed === 1);
}

async function settleOne(context: RedisContext, item: Item): Promise<boolean> {
  const [landed] = await settle(context, [item]);
  return landed === true;
}

export const ack = (context: RedisContext, fence: Fence, options: AckOptions) =>
  settleOne(context, ackItem(fence, options));

export const nack = (context: RedisContext, fence: Fence, options: NackOptions) =>
  settleOne(context, nackItem(fence, options));

export const suspend = (context: RedisContext, fence: Fence, options: SuspendOptions) =>
  settleOne(context, [
    'suspend',
    fence,
    options.until,
    options.waitFor,
    options.eventsSince,
    eventsFilter(options),
  ]);

/** The suspend's events filter as the script reads it, or absent. */
function eventsFilter(options: SuspendOptions): string | undefined {
  const { eventsMatch: match, eventsExclude: exclude } = options;
  if (match === undefined && exclude === undefined) return undefined;
  return JSON.stringify({
    ...(match === undefined ? {} : { match }),
    ...(exclude === undefined ? {} : { exclude }),
  });
}

export const extend = (context: RedisContext, fence: Fence, visibilityTimeoutMs: number) =>
  settleOne(context, ['extend', fence, visibilityTimeoutMs]);

export const ackMany = (context: RedisContext, items: readonly AckItem[]) =>
  settle(
    context,
    items.map((item) => ackItem(item.fence, item)),
  );

export const nackMany = (context: RedisContext, items: readonly NackItem[]) =>
  settle(
    context,
    items.map((item) => nackItem(item.fence, item)),
  );
