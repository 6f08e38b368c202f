import { createHash, randomInt } from 'node:crypto';
import type { Driver } from '../../contract/driver.js';
import type { EnqueueResult } from '../../contract/records.js';
import { screening } from '../../screen/values.js';
import { keyedWindow } from './keyed-window.js';

/**
 * Newest-wins jobs (`debounce`, and `concurrency.whenBusy: 'replace'`): each such job's id is a
 * generation id — a UUIDv8 holding the enqueue's instant, 10 random bits and a hash of what it
 * competes over (its scope), see generationId — and once it is enqueued a mark named for the scope is raised to
 * its generation. A worker taking up a job whose generation is below its scope's mark knows a
 * newer job of the scope was enqueued since, and settles it cancelled unrun (JOB_SUPERSEDED).
 * Only marks, enqueue and a fenced nack: every driver answers alike with no primitive of its own.
 */

/** The longest debounce window: a day. */
export const MAX_DEBOUNCE_MS = 24 * 3_600_000;

/** One run after `ms` of quiet, with the last payload (`EnqueueOptions.debounce`). */
export interface DebounceOptions {
  /** What is debounced: the newest job of this name (and tenant) and key wins. */
  readonly key: string;
  /** The quiet period, ms: each enqueue moves the run to `ms` after itself. */
  readonly ms: number;
}

/** 10 random bits under the instant: generations stay below 2^53 until the year 2248. */
const RANDOM_BITS = 1_024;
/** Bits 12-13 of the version group, set in every generation id: a UUIDv8 of another kind is not one. */
const MAGIC = 0x800;

/** What a generation id holds. */
export interface Generation {
  readonly generation: number;
  readonly mark: string;
}

/** The scope's 40-bit hash, as 10 hex digits: what a newest-wins job competes over. */
export function scopeOf(
  kind: 'debounce' | 'replace',
  name: string,
  tenantId: string | undefined,
  key: string | undefined,
): string {
  const text = JSON.stringify([kind, name, tenantId ?? null, key ?? null]);
  return createHash('sha256').update(text).digest('hex').slice(0, 10);
}

const markOf = (scope: string): string => `berth:newest:${scope}`;

/** This process's last generation: its own enqueues, even within one millisecond, only rise. */
let lastGeneration = 0;

/**
 * A generation id for an enqueue at `now` in `scope`: the generation (the instant × 1024 plus
 * 10 random bits, above this process's last one) in the time and version groups, the scope and
 * 20 more random bits in the last groups, so two processes' jobs of one instant differ.
 */
export function generationId(now: number, scope: string): string {
  const generation = Math.max(
    Math.floor(now) * RANDOM_BITS + randomInt(RANDOM_BITS),
    lastGeneration + 1,
  );
  lastGeneration = generation;
  const ms = Math.floor(generation / RANDOM_BITS)
    .toString(16)
    .padStart(12, '0')
    .slice(-12);
  const low = (MAGIC | (generation % RANDOM_BITS)).toString(16).padStart(3, '0');
  const tail = randomInt(0x100000).toString(16).padStart(5, '0');
  const hex = `${ms}8${low}b${scope}${tail}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A cheap first look, on every claimed job: its version and variant digits. */
export const isGenerationId = (id: string): boolean =>
  id.length === 36 && id[14] === '8' && (id[19] === 'b' || id[19] === 'B');

/** The generation and mark of a generation id; undefined for any other id. */
export function generationOf(id: string): Generation | undefined {
  const hex = id.replaceAll('-', '').toLowerCase();
  if (hex.length !== 32 || hex[12] !== '8' || hex[16] !== 'b') return undefined;
  const low = Number.parseInt(hex.slice(13, 16), 16);
  if ((low & 0xc00) !== MAGIC) return undefined;
  const ms = Number.parseInt(hex.slice(0, 12), 16);
  return {
    generation: ms * RANDOM_BITS + (low & (RANDOM_BITS - 1)),
    mark: markOf(hex.slice(17, 27)),
  };
}

/** A debounce as given: `{ key, ms }` with a name-like key and a window of 1 ms to a day. */
export const screenDebounce = screening(
  'debounce',
  (debounce: unknown): DebounceOptions =>
    keyedWindow('debounce', debounce, MAX_DEBOUNCE_MS, 'a day'),
);

/**
 * Raises the scope's mark once a newest-wins job is in: older jobs of the scope that no worker
 * started yet will not run. After the enqueue, never before: a crash between the two leaves an
 * older job that also runs, never a scope whose newest job was never stored.
 */
export async function raiseGeneration(driver: Driver, result: EnqueueResult): Promise<void> {
  // Every enqueue passes here: most ids are no generation id, told by two characters.
  if (result.deduped || !isGenerationId(result.id)) return;
  const generation = generationOf(result.id);
  if (generation !== undefined) await driver.marks.advance(generation.mark, generation.generation);
}

/** Whether a newer job of `id`'s scope was enqueued since it: a job that is not to run. */
export async function isSuperseded(driver: Driver, id: string): Promise<boolean> {
  const generation = generationOf(id);
  if (generation === undefined) return false;
  const newest = await driver.marks.get(generation.mark);
  return newest !== undefined && newest > generation.generation;
}
