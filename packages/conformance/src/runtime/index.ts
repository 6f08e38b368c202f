import type { GoldenScenario } from '../golden/transcript.js';
import { cancelAborts, exhaustedDead, jobCompletes, retryThenComplete } from './jobs.js';
import { unknownNameStaysReady } from './rolling-deploy.js';
import { schedulerSlotAfterPurge, schedulerSlotsOnce } from './schedule.js';
import {
  schedulerKilledBeforeMark,
  schedulerStalledLeader,
  schedulerStopLeavesLead,
} from './schedule-crash.js';
import {
  sleepSuspendsThenResumes,
  stepMemoizedAcrossRetry,
  waitForEventPublishedBefore,
  waitForEventResumesOnPublish,
  waitForEventTimesOut,
} from './steps.js';

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
  schedulerKilledBeforeMark,
  schedulerStalledLeader,
  schedulerStopLeavesLead,
  unknownNameStaysReady,
];
