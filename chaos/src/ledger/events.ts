/**
 * One line of the ledger. Every line carries the writing process (`pid`) and a wall-clock
 * instant with sub-millisecond resolution (`t`), comparable across the processes of one machine.
 */
export type LedgerEvent =
  | (HandlerEvent<'start'> & { readonly key: string })
  | (HandlerEvent<'end'> & { readonly ok: boolean; readonly error?: string })
  | (HandlerEvent<'step-run' | 'step-got'> & { readonly step: string; readonly token: string })
  | (HandlerEvent<'refused'> & { readonly step: string })
  | (HandlerEvent<'unit'> & { readonly key: string })
  | HandlerEvent<'completed' | 'lease-lost'>
  | EnqueueEvent;

/**
 * A producer process's enqueue of one id, once it stopped trying: answered or not. Shaped as a
 * handler's line (the job's name, no run, claim 0) so every check reads it as one.
 */
export type EnqueueEvent = HandlerEvent<'enqueued'> & { readonly acknowledged: boolean };

type HandlerEvent<E extends string> = {
  readonly ev: E;
  readonly t: number;
  readonly pid: number;
  readonly job: string;
  readonly runId: string;
  readonly name: string;
  /** The claim number of the attempt: it grows on every claim of the row. */
  readonly claim: number;
};

export type LedgerEventName = LedgerEvent['ev'];

/** The wall clock with sub-millisecond resolution. */
export const now = (): number => performance.timeOrigin + performance.now();

/** A step's output: who ran it, under which claim. `claim/pid/n`. */
export function stepToken(claim: number, pid: number, n: number): string {
  return `${claim}/${pid}/${n}`;
}

export function tokenClaim(token: string): number {
  return Number(token.split('/')[0]);
}
