import type { GoldenScenario } from '../golden/transcript.js';
import { nackAnswerLost, suspendAnswerLost } from './answers-lost.js';
import { batchRunsTogether } from './batch.js';
import { settleSurvivesBlip } from './blips.js';
import { cancelHeardAtOnce } from './cancel-heard.js';
import {
  eventInLooksMillisecond,
  twoWaitsTakeTwoEvents,
  unmatchedEventDoesNotSpin,
} from './event-gap.js';
import { flowParentReadsChildren, invokeAnswersChild } from './flows.js';
import { cancelAborts, exhaustedDead, jobCompletes, retryThenComplete } from './jobs.js';
import { failingLeaseRenewalAborts, hangingLeaseRenewalAborts } from './lease-renewal.js';
import {
  debounceRunsTheLast,
  replaceRunsTheNewest,
  skipCancelsBusy,
  throttleOnePerWindow,
} from './newest-wins.js';
import { prefetchHandsBackOnStop } from './prefetch.js';
import { unknownNameStaysReady } from './rolling-deploy.js';
import { schedulerSlotAfterPurge, schedulerSlotsOnce } from './schedule.js';
import {
  schedulerKilledAfterEnqueue,
  schedulerKilledBeforeEnqueue,
  schedulerStalledLeader,
  schedulerStopLeavesLead,
} from './schedule-crash.js';
import { failingSlotRenewalAborts, hangingSlotRenewalAborts } from './slot-renewal.js';
import {
  lostSlotAbortsAttempt,
  resumeTakesNoRateSlot,
  slotBlipChargesNoAttempt,
  slotHeldUntilHandlerReturns,
} from './slots.js';
import { stalledReclaim } from './stalled.js';
import {
  sleepSuspendsThenResumes,
  stepMemoizedAcrossRetry,
  waitForEventPublishedBefore,
  waitForEventResumesOnPublish,
  waitForEventTimesOut,
} from './steps.js';
import { storedScheduleSlotsOnce } from './stored-schedule.js';
import { swallowedSleepStillSuspends } from './suspension.js';
import { dueTimesWakeTheWorker, freedSlotStartsNextJob } from './wake-ups.js';

/** Every runtime scenario, in the order the kit runs them. */
export const runtimeScenarios: readonly GoldenScenario[] = [
  jobCompletes,
  retryThenComplete,
  exhaustedDead,
  cancelAborts,
  stepMemoizedAcrossRetry,
  sleepSuspendsThenResumes,
  waitForEventResumesOnPublish,
  waitForEventPublishedBefore,
  waitForEventTimesOut,
  schedulerSlotsOnce,
  schedulerSlotAfterPurge,
  schedulerKilledAfterEnqueue,
  schedulerKilledBeforeEnqueue,
  schedulerStalledLeader,
  schedulerStopLeavesLead,
  storedScheduleSlotsOnce,
  unknownNameStaysReady,
  swallowedSleepStillSuspends,
  settleSurvivesBlip,
  freedSlotStartsNextJob,
  dueTimesWakeTheWorker,
  eventInLooksMillisecond,
  unmatchedEventDoesNotSpin,
  twoWaitsTakeTwoEvents,
  resumeTakesNoRateSlot,
  lostSlotAbortsAttempt,
  slotHeldUntilHandlerReturns,
  slotBlipChargesNoAttempt,
  prefetchHandsBackOnStop,
  nackAnswerLost,
  suspendAnswerLost,
  failingSlotRenewalAborts,
  hangingSlotRenewalAborts,
  failingLeaseRenewalAborts,
  hangingLeaseRenewalAborts,
  debounceRunsTheLast,
  replaceRunsTheNewest,
  skipCancelsBusy,
  throttleOnePerWindow,
  batchRunsTogether,
  flowParentReadsChildren,
  invokeAnswersChild,
  stalledReclaim,
  cancelHeardAtOnce,
];
