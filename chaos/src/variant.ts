import type { Backend, ServerOptions } from './servers/index.ts';

/** What a report says of the setting it ran under, beyond the backend's name. */
export interface Variant {
  /** Shown beside the backend's name in the table. */
  readonly variant?: string;
  /**
   * Set when the setting has a documented loss window that the run's fault opens: its losses are
   * reported as that window, not as violations.
   */
  readonly documentedWindow?: string;
}

export function variantOf(backend: Backend, options: ServerOptions): Variant {
  if (backend !== 'redis-sentinel' && backend !== 'redis-sentinel-partition') return {};
  if (options.durability ?? true) return { variant: 'durability 1 replica' };
  return {
    variant: 'no durability',
    ...(backend === 'redis-sentinel-partition'
      ? {
          documentedWindow:
            'without durability a cut-off primary acknowledges writes that the failover discards',
        }
      : {}),
  };
}
