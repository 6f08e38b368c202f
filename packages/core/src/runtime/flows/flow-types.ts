import type { JobError, Json } from '../../contract/records.js';
import type { EnqueueItem, EnqueueOptions } from '../client/client-types.js';
import type { AnyJobContract } from '../jobs/job-types.js';

/** A child's settle that is not a completion. */
export type ChildFailedState = 'failed' | 'dead' | 'cancelled';

/** How a child settled, as its parent reads it (`step.invoke`, `step.children`). */
export type ChildOutcome<TResult = Json> =
  | {
      readonly id: string;
      readonly name: string;
      readonly state: 'completed';
      readonly result: TResult;
    }
  | {
      readonly id: string;
      readonly name: string;
      readonly state: ChildFailedState;
      /** The child's last error, when it settled with one (a cancel of a job never run has none). */
      readonly error?: JobError;
    };

/**
 * What a child's failure (failed, dead or cancelled) does to its flow's parent:
 * - `fail` (default): the parent's `step.children()` throws JOB_FAILED naming the child as soon
 *   as the parent wakes to it, without waiting for the other children, and the parent's attempt
 *   fails for good (non-retryable) unless the handler catches it;
 * - `ignore`: the child is left out of the outcomes the parent reads;
 * - `continue`: the parent reads the child's failure among the outcomes.
 */
export type ChildFailurePolicy = 'fail' | 'ignore' | 'continue';

/** One child of `client.enqueueFlow`: a typed enqueue item and its failure policy. */
export interface FlowChild<J extends AnyJobContract = AnyJobContract> extends EnqueueItem<J> {
  /** What this child's failure does to the parent; default `fail`. */
  readonly onFailure?: ChildFailurePolicy;
}

/** `client.enqueueFlow`'s input: the parent job and its children, enqueued together. */
export interface FlowInput<P extends AnyJobContract, C extends readonly AnyJobContract[]> {
  /** The parent job: its handler reads the children with `step.children()`. */
  readonly job: P;
  /** The parent's payload, checked against its job. */
  readonly payload: FlowChild<P>['payload'];
  /** The parent's enqueue options; its `tenantId` is every child's too. */
  readonly options?: EnqueueOptions;
  /** The children, in the order the parent reads them; 1 to MAX_FLOW_CHILDREN. */
  readonly children: { readonly [K in keyof C]: FlowChild<C[K]> };
}

/** What `client.enqueueFlow` answers: the parent's id and each child's, in the given order. */
export interface FlowEnqueued {
  /** The parent job. */
  readonly parent: { readonly id: string; readonly runId: string };
  /** Each child, in the order given. */
  readonly children: readonly { readonly id: string; readonly runId: string }[];
}

/** `step.invoke`'s options: the child's enqueue options, less those the invoke decides. */
export type InvokeOptions = Omit<
  EnqueueOptions,
  'id' | 'idempotencyKey' | 'onConflict' | 'tenantId'
>;

/** One child as the parent's manifest lists it (stored in the flow's event and memoized). */
export interface ManifestChild {
  readonly id: string;
  readonly name: string;
  readonly onFailure: ChildFailurePolicy;
}

/** The most children one `enqueueFlow` takes. */
export const MAX_FLOW_CHILDREN = 500;
