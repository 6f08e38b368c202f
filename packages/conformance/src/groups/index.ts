import type { DriverCapabilities, KitGroup, KitOptions } from '../kit.js';
import { differentialGroup } from './answers/differential.js';
import { fuzzGroup } from './answers/fuzz.js';
import { goldenGroup } from './answers/golden.js';
import { runtimeGroup } from './answers/runtime.js';
import { screensGroup } from './answers/screens.js';
import { attemptsGroup } from './attempts/attempts.js';
import { backfillsGroup } from './backfills/backfills.js';
import { claimGroup } from './claim/claim.js';
import { concurrencyGroup } from './concurrency/concurrency.js';
import { appTransactionGroup } from './driver/app-transaction.js';
import { checkGroup } from './driver/check.js';
import { closeGroup } from './driver/close.js';
import { restartGroup } from './driver/restart.js';
import { enqueueGroup } from './enqueue/enqueue.js';
import { eventsGroup } from './events/events.js';
import { leasesGroup } from './leases/leases.js';
import { marksGroup } from './leases/marks.js';
import { lifecycleGroup } from './lifecycle/lifecycle.js';
import { listGroup } from './list/list.js';
import { statsGroup } from './list/stats.js';
import { tenancyGroup } from './list/tenancy.js';
import { logsGroup } from './logs/logs.js';
import { progressGroup } from './logs/progress.js';
import { deleteGroup } from './operator/delete.js';
import { operatorGroup } from './operator/operator.js';
import { requeueGroup } from './operator/requeue.js';
import { pauseGroup } from './pause/pause.js';
import { largeValuesGroup } from './scale/large-values.js';
import { scaleGroup } from './scale/scale.js';
import { schedulesGroup } from './schedules/schedules.js';
import { settleGroup } from './settle/settle.js';
import { stepsGroup } from './steps/steps.js';
import { wakeGroup } from './wake/wake.js';

/**
 * Every group of the kit, in spec order. Groups sit in one folder per contract area under
 * `groups/` (enqueue, claim, settle, operator, list, attempts, logs, lifecycle, steps, events, leases,
 * concurrency, pause, backfills, schedules, wake, driver, answers, scale), beside `fixtures/`, the one set
 * of helpers and values they share. The differential group needs the options (its reference
 * driver), so the list is built per run.
 */
export function kitGroups(
  options: KitOptions,
  capabilities: DriverCapabilities = {},
): readonly KitGroup[] {
  return [
    enqueueGroup,
    claimGroup,
    settleGroup,
    progressGroup,
    attemptsGroup,
    logsGroup,
    lifecycleGroup,
    operatorGroup,
    requeueGroup,
    deleteGroup,
    listGroup,
    statsGroup,
    tenancyGroup,
    stepsGroup,
    eventsGroup,
    leasesGroup,
    marksGroup,
    pauseGroup,
    backfillsGroup,
    schedulesGroup,
    wakeGroup,
    checkGroup,
    closeGroup,
    screensGroup,
    goldenGroup,
    differentialGroup(options),
    fuzzGroup(options),
    runtimeGroup,
    concurrencyGroup,
    scaleGroup,
    restartGroup(options),
    largeValuesGroup,
    ...(capabilities.inAppTransaction === true ? [appTransactionGroup] : []),
  ];
}
