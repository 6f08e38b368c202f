/**
 * How deep a driver's conformance kit runs. `pnpm test` is the CI budget: each driver's kit on
 * one server runs whole at the kit's defaults (200 differential sequences, 300 fuzz calls, fresh
 * seeds each run); a kit that repeats a driver on another topology (a cluster, Sentinel) runs
 * every group but those its single-server kit already answers for the driver's own code
 * (`TOPOLOGY_DEEP_ONLY`: fuzz, scale, large-values) and 50 differential sequences. `pnpm
 * test:deep` (BERTH_DEEP=1) runs every kit whole, with 1,000 sequences and 1,500 fuzz calls.
 */
export interface KitBudget {
  readonly differentialRuns?: number;
  readonly fuzzRuns?: number;
  readonly except?: readonly string[];
}

/** Sequences and calls of the deep run, on every kit. */
const DEEP = { differentialRuns: 1_000, fuzzRuns: 1_500 } as const;
/** Differential sequences of a topology kit in `pnpm test`. */
const TOPOLOGY_RUNS = 50;

/** Whether this run is `pnpm test:deep`. */
export const deepRun = (): boolean => process.env.BERTH_DEEP === '1';

/**
 * The kit options of this run's budget for a kit on one `server`, or on a `topology` that
 * repeats it; `deepOnly` is the kit's TOPOLOGY_DEEP_ONLY (passed in: this package does not
 * depend on the kit).
 */
export function kitBudget(
  kind: 'server' | 'topology',
  deepOnly: readonly string[] = [],
): KitBudget {
  if (deepRun()) return DEEP;
  return kind === 'server' ? {} : { differentialRuns: TOPOLOGY_RUNS, except: deepOnly };
}
