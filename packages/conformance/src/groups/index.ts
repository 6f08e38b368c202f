import type { KitGroup, KitOptions } from '../kit.js';
import { appTransactionGroup } from './app-transaction.js';
import { attemptsGroup } from './attempts.js';
import { backfillsGroup } from './backfills.js';
import { checkGroup } from './check.js';
import { claimGroup } from './claim.js';
import { closeGroup } from './close.js';
import { concurrencyGroup } from './concurrency.js';
import { deleteGroup } from './delete.js';
import { differentialGroup } from './differential.js';
import { enqueueGroup } from './enqueue.js';
import { eventsGroup } from './events.js';
import { fuzzGroup } from './fuzz.js';
import { goldenGroup } from './golden.js';
import { largeValuesGroup } from './large-values.js';
import { leasesGroup } from './leases.js';
import { listGroup } from './list.js';
import { logsGroup } from './logs.js';
import { marksGroup } from './marks.js';
import { operatorGroup } from './operator.js';
import { pauseGroup } from './pause.js';
import { progressGroup } from './progress.js';
import { requeueGroup } from './requeue.js';
import { restartGroup } from './restart.js';
import { runtimeGroup } from './runtime.js';
import { scaleGroup } from './scale.js';
import { screensGroup } from './screens.js';
import { settleGroup } from './settle.js';
import { statsGroup } from './stats.js';
import { stepsGroup } from './steps.js';
import { tenancyGroup } from './tenancy.js';
import { wakeGroup } from './wake.js';

/**
 * Every group of the kit, in spec order; one file each under `groups/`. The differential group
 * needs the options (its reference driver), so the list is built per run.
 */
export function kitGroups(options: KitOptions): readonly KitGroup[] {
  return [
    enqueueGroup,
    claimGroup,
    settleGroup,
    progressGroup,
    attemptsGroup,
    logsGroup,
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
    ...(options.inAppTransaction === true ? [appTransactionGroup] : []),
  ];
}
