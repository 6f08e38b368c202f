export { createStepApi, DEFAULT_EVENT_POLL_MS } from './create-step-api.js';
export type { Suspension } from './run-suspended.js';
export { isRunSuspended, RunSuspended } from './run-suspended.js';
export type {
  CreateStepApiInput,
  StepApi,
  StepContext,
  StepOutput,
  StepRunOptions,
  WaitForEventOptions,
} from './step-api.js';
