/** A node of EXPLAIN (FORMAT JSON), with the fields the plan tests read. */
export interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Index Name'?: string;
  readonly 'Parent Relationship'?: string;
  readonly 'Subplan Name'?: string;
  readonly Alias?: string;
  /** With ANALYZE: rows per loop, and the loops. */
  readonly 'Actual Rows'?: number;
  readonly 'Actual Loops'?: number;
  /** With ANALYZE, BUFFERS: counted over this node and every node under it. */
  readonly 'Shared Hit Blocks'?: number;
  readonly 'Shared Read Blocks'?: number;
  readonly Plans?: readonly PlanNode[];
}

/** Every node of a plan, the root first. */
export const flatten = (node: PlanNode): PlanNode[] => [
  node,
  ...(node.Plans ?? []).flatMap(flatten),
];

/** The buffers a node touched (ANALYZE, BUFFERS), its children's included. */
export const buffersOf = (node: PlanNode): number =>
  (node['Shared Hit Blocks'] ?? 0) + (node['Shared Read Blocks'] ?? 0);
