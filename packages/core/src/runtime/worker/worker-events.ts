import type { RuntimeLogger } from './logger.js';
import { errorFields } from './logger.js';
import type { WorkerEventName, WorkerEvents } from './worker-types.js';

type Listener<E extends WorkerEventName> = (payload: WorkerEvents[E]) => void;

/** The worker's event listeners. A listener that throws is logged and never stops the worker. */
export class WorkerEmitter {
  private readonly listeners = new Map<WorkerEventName, Set<Listener<WorkerEventName>>>();

  constructor(private readonly logger: RuntimeLogger) {}

  on<E extends WorkerEventName>(event: E, listener: Listener<E>): () => void {
    const set = this.listeners.get(event) ?? new Set();
    this.listeners.set(event, set);
    const entry = listener as Listener<WorkerEventName>;
    set.add(entry);
    return () => {
      set.delete(entry);
    };
  }

  /** Whether anyone listens to `event`: a hot path skips building a payload nobody reads. */
  has(event: WorkerEventName): boolean {
    return (this.listeners.get(event)?.size ?? 0) > 0;
  }

  emit<E extends WorkerEventName>(event: E, payload: WorkerEvents[E]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        listener(payload);
      } catch (error) {
        this.logger.error(`a "${event}" listener threw`, errorFields(error));
      }
    }
  }
}
