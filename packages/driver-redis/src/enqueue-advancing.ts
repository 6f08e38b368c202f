import {
  type EnqueueResult,
  idTaken,
  jobDuplicate,
  type MarkAdvance,
  type MarkPassed,
  type ScreenedEnqueue,
} from '@berth/core/driver';
import type { RedisContext } from './context.js';
import { asArray, ReplyShapeError } from './decode.js';
import { argsOf, outcomeOf } from './enqueue.js';
import { ENQUEUE_ADVANCING_LUA } from './lua/generated.js';
import { defineScript } from './scripts.js';

const ENQUEUE_ADVANCING = defineScript('enqueue-advancing', ENQUEUE_ADVANCING_LUA);

/** `enqueue` with `advanceMark`: the mark read, the insert decided and the mark raised in one script. */
export async function enqueueAdvancing(
  context: RedisContext,
  request: ScreenedEnqueue,
  mark: MarkAdvance,
): Promise<EnqueueResult | MarkPassed> {
  const fields = argsOf(request, context.clock.now());
  const args = ['many', 1, ...fields, mark.name, mark.value];
  await context.hooks.beforeMarkedEnqueue?.();
  const reply = await context.run(ENQUEUE_ADVANCING, context.clock.now(), args);
  if (asArray(reply, 'enqueue')[0] === 'passed') return { markPassed: true };
  const outcome = outcomeOf(reply, [fields]);
  if (outcome.kind === 'taken') throw idTaken();
  if (outcome.kind !== 'ok') throw jobDuplicate(request, outcome.holderId);
  const [result] = outcome.results;
  if (result === undefined) throw new ReplyShapeError('enqueue answered no row');
  return result;
}
