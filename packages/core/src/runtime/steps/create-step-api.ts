import type { EventRecord } from '../../contract/events.js';
import type { Json } from '../../contract/records.js';
import type { StepRecord } from '../../contract/steps.js';
import { isBerthError } from '../../errors/berth-error.js';
import { stepInvalid } from '../../errors/refusals.js';
import type { JsonRoot, JsonShaped } from '../../json-shape.js';
import { screenJson } from '../../screen/values.js';
import { screenJobDefinition } from '../client/enqueue-request.js';
import type { StepCore } from '../flows/child-steps.js';
import { readChildren } from '../flows/children-step.js';
import { flowEventName, RESERVED_STEP_PREFIX } from '../flows/flow-names.js';
import { invokeChild } from '../flows/invoke-step.js';
import { toJobError } from '../jobs/job-error.js';
import { inStepSpan } from '../otel/step-span.js';
import { RunSuspended, type Suspension } from './run-suspended.js';
import type { CreateStepApiInput, StepApi, WaitForEventOptions } from './step-api.js';
import { stepKindChanged, stepNameReused, stepOutputNotJson, stepTimedOut } from './step-errors.js';
import { runWithTimeout } from './step-timeout.js';

/** How long an event wait parks before it looks again, when the worker names no other. */
export const DEFAULT_EVENT_POLL_MS = 5 * 60_000;

type StepKind = 'run' | 'sleep' | 'event';

// A stored step's kind, from the fields only that kind writes.
const kindOf = (record: StepRecord): StepKind =>
  record.eventName !== undefined ? 'event' : record.wakeAt !== undefined ? 'sleep' : 'run';

const eventJson = (event: EventRecord): Json => ({
  id: event.id,
  name: event.name,
  payload: event.payload,
  publishedAt: event.publishedAt,
  expiresAt: event.expiresAt,
});

/**
 * The step API of one attempt. Built afresh per attempt: the names used are counted per
 * attempt, and every write presents this attempt's fence, so a stale worker lands nothing.
 */
export function createStepApi(input: CreateStepApiInput): StepApi {
  const { driver, job, fence, signal } = input;
  const { clock } = driver;
  const pollMs = input.eventPollMs ?? DEFAULT_EVENT_POLL_MS;
  const used = new Set<string>();
  const where = (step: string) => ({ jobId: job.id, runId: job.runId, step });
  // The run's stored steps, read once per attempt (one `steps.list`, not a `get` per step).
  let stored: Promise<ReadonlyMap<string, StepRecord>> | undefined;
  const storedStep = async (name: string): Promise<StepRecord | undefined> => {
    stored ??= (input.steps?.() ?? driver.steps.list(job.runId)).then(
      (records) => new Map(records.map((record) => [record.name, record])),
      (error: unknown) => {
        // A failed read is tried again by the next step, not remembered.
        stored = undefined;
        throw error;
      },
    );
    return (await stored).get(name);
  };
  // Events the run's waits took, before this attempt (stored) or in it: a wait never answers
  // one of them again.
  const takenHere: { readonly event: string; readonly id: string }[] = [];
  const consumedEvents = async (event: string): Promise<string[]> => {
    const ids: string[] = [];
    for (const record of (await stored)?.values() ?? []) {
      if (record.eventName === event && record.eventId !== undefined) ids.push(record.eventId);
    }
    for (const taken of takenHere) if (taken.event === event) ids.push(taken.id);
    return ids;
  };
  // The first suspension a step asked for. It stands even when the handler swallows it: every
  // later step throws it again, and the worker suspends the run whatever the handler answers.
  let requested: RunSuspended | undefined;
  const suspendRun = (suspension: Suspension): never => {
    if (requested === undefined) {
      requested = new RunSuspended(suspension);
      input.onSuspend?.(requested);
    }
    throw requested;
  };

  // Claims the name for this attempt and answers what an earlier attempt stored under it.
  const begin = async (name: string, kind: StepKind): Promise<StepRecord | undefined> => {
    if (typeof name !== 'string' || name.length === 0) {
      throw stepInvalid('a step name must be a non-empty string', { jobId: job.id, step: name });
    }
    if (name.startsWith(RESERVED_STEP_PREFIX)) {
      throw stepInvalid(
        `step names starting with ${JSON.stringify(RESERVED_STEP_PREFIX)} are Berth's own (flows); name this step otherwise`,
        where(name),
      );
    }
    if (used.has(name)) throw stepNameReused(where(name));
    used.add(name);
    if (signal.aborted) throw signal.reason;
    if (requested !== undefined) throw requested;
    const record = await storedStep(name);
    if (record !== undefined && kindOf(record) !== kind) {
      throw stepKindChanged(where(name), kindOf(record), kind);
    }
    return record;
  };

  const write = async (record: StepRecord): Promise<void> => {
    // The fence still holds until the worker settles an aborted attempt: nothing may land now.
    if (signal.aborted) throw signal.reason;
    try {
      await driver.steps.put(record, fence);
    } catch (error) {
      if (isBerthError(error, 'LEASE_LOST')) input.onLeaseLost?.(error);
      throw error;
    }
  };

  const memoizable = (name: string, value: unknown): Json | undefined => {
    if (value === undefined) return undefined;
    try {
      return screenJson('output', value, Number.POSITIVE_INFINITY).value;
    } catch (error) {
      throw stepOutputNotJson(where(name), isBerthError(error) ? error.detail : String(error));
    }
  };

  const checkDuration = (name: string, field: string, value: number): void => {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw stepInvalid(`step ${JSON.stringify(name)}: ${field} must be a finite number >= 0`, {
        ...where(name),
        field,
      });
    }
  };

  const park = async (name: string, wakeAtIfNew: () => number): Promise<void> => {
    const stored = await begin(name, 'sleep');
    if (stored?.status === 'completed') return;
    const now = clock.now();
    const wakeAt = stored?.wakeAt ?? wakeAtIfNew();
    const base = {
      runId: job.runId,
      name,
      attempts: 0,
      wakeAt,
      startedAt: stored?.startedAt ?? now,
    };
    if (now >= wakeAt) {
      await write({ ...base, status: 'completed', updatedAt: now });
      return;
    }
    if (stored === undefined) await write({ ...base, status: 'sleeping', updatedAt: now });
    suspendRun({ until: wakeAt });
  };

  const core: StepCore = {
    driver,
    job,
    pollMs,
    stored: storedStep,
    write,
    suspend: suspendRun,
  };

  return {
    async run<T extends JsonShaped<T> & JsonRoot>(
      name: string,
      fn: (context: { signal: AbortSignal; attempt: number }) => T | Promise<T>,
      options: { timeout?: number } = {},
    ): Promise<T> {
      const stored = await begin(name, 'run');
      if (stored?.status === 'completed') return stored.output as T;
      const attempt = (stored?.attempts ?? 0) + 1;
      const startedAt = stored?.startedAt ?? clock.now();
      const timeoutMs = options.timeout ?? input.defaultStepTimeoutMs;
      if (timeoutMs !== undefined) checkDuration(name, 'timeout', timeoutMs);
      let output: Json | undefined;
      try {
        const value = await inStepSpan({ name, job: job.name, attempt }, () =>
          runWithTimeout({
            clock,
            parent: signal,
            timeoutMs,
            timeoutError: () => stepTimedOut(where(name), timeoutMs ?? 0),
            fn: (stepSignal) => fn({ signal: stepSignal, attempt }),
          }),
        );
        output = memoizable(name, value);
      } catch (error) {
        // The attempt itself stopped (cancel, lost lease, drain): the step did not fail.
        if (signal.aborted) throw error;
        await write({
          runId: job.runId,
          name,
          status: 'failed',
          error: toJobError(error),
          attempts: attempt,
          startedAt,
          updatedAt: clock.now(),
        });
        throw error;
      }
      await write({
        runId: job.runId,
        name,
        status: 'completed',
        ...(output === undefined ? {} : { output }),
        attempts: attempt,
        startedAt,
        updatedAt: clock.now(),
      });
      return output as T;
    },

    async sleep(name, durationMs) {
      checkDuration(name, 'durationMs', durationMs);
      await park(name, () => clock.now() + Math.ceil(durationMs));
    },

    async sleepUntil(name, at) {
      if (typeof at !== 'number' || !Number.isFinite(at)) {
        throw stepInvalid(`step ${JSON.stringify(name)}: at must be a finite instant`, {
          ...where(name),
          field: 'at',
        });
      }
      await park(name, () => Math.ceil(at));
    },

    async waitForEvent<TPayload>(
      name: string,
      options: WaitForEventOptions<TPayload>,
    ): Promise<EventRecord<TPayload> | null> {
      checkDuration(name, 'timeout', options.timeout);
      // A declared event's payload was checked against its schema at publish: it is TPayload.
      const event = typeof options.event === 'string' ? options.event : options.event.name;
      const stored = await begin(name, 'event');
      if (stored !== undefined && stored.eventName !== event) {
        throw stepKindChanged(where(name), `wait for ${stored.eventName}`, `wait for ${event}`);
      }
      if (stored?.status === 'completed')
        return (stored.output ?? null) as EventRecord<TPayload> | null;
      const now = clock.now();
      const wakeAt = stored?.wakeAt ?? now + Math.ceil(options.timeout);
      const base = {
        runId: job.runId,
        name,
        attempts: 0,
        wakeAt,
        eventName: event,
        startedAt: stored?.startedAt ?? now,
      };
      // Events are stored: one published since the job was made counts, before the wait or not,
      // unless another wait of this run took it already (each event is consumed once per run).
      const exclude = await consumedEvents(event);
      const matching = {
        ...(options.match === undefined ? {} : { match: options.match }),
        ...(exclude.length === 0 ? {} : { exclude }),
      };
      const found = await driver.events.find(event, { after: job.createdAt, ...matching });
      if (found !== undefined) {
        takenHere.push({ event, id: found.id });
        await write({
          ...base,
          status: 'completed',
          eventId: found.id,
          output: eventJson(found),
          updatedAt: now,
        });
        return found as EventRecord<TPayload>;
      }
      if (now >= wakeAt) {
        await write({ ...base, status: 'completed', output: null, updatedAt: now });
        return null;
      }
      if (stored === undefined) await write({ ...base, status: 'waiting', updatedAt: now });
      // A publish landing between this look and the suspend still wakes the run: the suspend
      // itself looks again, over the same events as this look (the same bound, match and
      // exclusions), so an event of this look's own millisecond, or from a publisher whose clock
      // is behind, is not missed; and one this look passed over (no match, or consumed) never
      // wakes the run, so it cannot spin. `pollMs` bounds the park all the same.
      return suspendRun({
        until: Math.min(wakeAt, now + pollMs),
        waitFor: event,
        eventsSince: job.createdAt,
        ...(matching.match === undefined ? {} : { eventsMatch: matching.match }),
        ...(matching.exclude === undefined ? {} : { eventsExclude: matching.exclude }),
      });
    },

    async invoke(name, childJob, payload, options) {
      const stored = await begin(name, 'event');
      const event = flowEventName(job.id);
      if (stored !== undefined && stored.eventName !== event) {
        throw stepKindChanged(where(name), `wait for ${stored.eventName}`, 'invoke');
      }
      return (await invokeChild(core, stored, { name, job: childJob, payload, options })) as never;
    },

    async children(childJob?: unknown) {
      if (signal.aborted) throw signal.reason;
      if (requested !== undefined) throw requested;
      const name = childJob === undefined ? undefined : screenJobDefinition(childJob, 'job').name;
      return (await readChildren(core, name)) as never;
    },
  };
}
