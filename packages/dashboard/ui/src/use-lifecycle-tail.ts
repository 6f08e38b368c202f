import { useRef } from 'preact/hooks';
import type {
  LifecycleEndResponse,
  LifecycleEventView,
  LifecycleResponse,
} from '../../src/lifecycle-types';
import { type ApiError, getJson } from './api';
import { usePoll } from './use-poll';

/** Events the page keeps in view: the newest, the older ones let go. */
export const KEPT_EVENTS = 500;
/** The largest page the route takes (MAX_LIFECYCLE_PAGE). */
const READ_PAGE = 200;
/**
 * Reads one poll makes at most while the stream is ahead of it (each examines at most 200
 * events): a long catch-up goes on at the next poll instead of holding one request chain open.
 */
const READS_PER_POLL = 25;

export interface TailFilters {
  readonly queue: string;
  readonly name: string;
  /** `end`: only what happens from now on; `oldest`: from the oldest event the stream keeps. */
  readonly from: 'end' | 'oldest';
}

export interface TailView {
  /** Newest first, at most KEPT_EVENTS. */
  readonly events: readonly LifecycleEventView[];
  /** Events read since the start, kept or not. */
  readonly seen: number;
  /** The last read reached the stream's end. */
  readonly caughtUp: boolean;
}

/** A tail's place in the stream, changed as its reads answer. */
interface Tail {
  readonly key: string;
  started: boolean;
  reading: boolean;
  after: string | undefined;
  events: LifecycleEventView[];
  seen: number;
  caughtUp: boolean;
}

const fresh = (key: string): Tail => ({
  key,
  started: false,
  reading: false,
  after: undefined,
  events: [],
  seen: 0,
  caughtUp: false,
});

const snapshot = (tail: Tail): TailView => ({
  events: tail.events,
  seen: tail.seen,
  caughtUp: tail.caughtUp,
});

/**
 * Follows the lifecycle stream with `usePoll`: starts at the stream's end (or its oldest kept
 * event), then every poll reads on from the last `next`, again at once while a read was not
 * caught up. Other filters start a new tail; a paused tail keeps its place and reads nothing.
 */
export function useLifecycleTail(
  filters: TailFilters,
  paused: boolean,
): { readonly view: TailView | undefined; readonly error: ApiError | undefined } {
  const key = `lifecycle?${new URLSearchParams({ ...filters })}`;
  const tail = useRef<Tail>(fresh(key));
  if (tail.current.key !== key) tail.current = fresh(key);

  const readOn = async (current: Tail): Promise<void> => {
    if (!current.started) {
      if (filters.from === 'end') {
        current.after = (await getJson<LifecycleEndResponse>('/lifecycle/end')).end ?? undefined;
      }
      current.started = true;
    }
    for (let reads = 0; reads < READS_PER_POLL; reads += 1) {
      const query = new URLSearchParams({ limit: String(READ_PAGE) });
      if (current.after !== undefined) query.set('after', current.after);
      if (filters.queue !== '') query.set('queue', filters.queue);
      if (filters.name !== '') query.set('name', filters.name);
      const page = await getJson<LifecycleResponse>('/lifecycle', query);
      if (tail.current !== current) return;
      current.after = page.next ?? current.after;
      current.events = [...page.events].reverse().concat(current.events).slice(0, KEPT_EVENTS);
      current.seen += page.events.length;
      current.caughtUp = page.caughtUp;
      if (page.caughtUp) return;
    }
  };

  const { error } = usePoll(
    key,
    async () => {
      const current = tail.current;
      // One chain of reads at a time: a poll that finds one running leaves it the position.
      if (paused || current.reading) return snapshot(current);
      current.reading = true;
      try {
        await readOn(current);
      } catch (caught) {
        // A position the stream no longer knows (a restarted memory driver): start again.
        if ((caught as ApiError).code === 'JOB_PAGE_INVALID') current.started = false;
        throw caught;
      } finally {
        current.reading = false;
      }
      return snapshot(current);
    },
    !paused,
  );
  // The view is the tail's own: usePoll forgets its answer when pausing changes `live`.
  return { view: tail.current.started ? snapshot(tail.current) : undefined, error };
}
