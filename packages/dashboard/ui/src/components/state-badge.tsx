import type { State } from '../../../src/api-types';

export function StateBadge({ state }: { readonly state: State }) {
  return <span class={`badge state-${state}`}>{state}</span>;
}
