// Every name a run gives the things it creates, from its random tag: the parent removes exactly
// these when the run ends, and nothing else.

/** The pg schema a run keeps everything in. */
export const schemaFor = (tag: string): string => `bench_${tag}`;

/** The redis key prefix (and NATS stream prefix) a run keeps everything under. */
export const prefixFor = (tag: string): string => `bench-${tag}`;

/** The pg application_name of a run's connections: how the meter finds its backends. */
export const applicationNameFor = (tag: string): string => `berth-bench-${tag}`;
