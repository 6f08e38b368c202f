/** How a worker's renewals go wrong: each throws, or each hangs unanswered. */
export type RenewalFailure = 'throws' | 'hangs';

/** Renewals that fail one way until healed; `heal` also answers the hanging ones. */
export interface FailingRenewals {
  /** Runs `call` once healed; before that, throws or hangs as the failure says. */
  run<T>(call: () => Promise<T>): Promise<T>;
  /** Renewals work again; those left hanging answer, as a request's own timeout would. */
  heal(): void;
}

export function failingRenewals(failure: RenewalFailure): FailingRenewals {
  let failing = true;
  const hanging: ((error: Error) => void)[] = [];
  return {
    run(call) {
      if (!failing) return call();
      if (failure === 'throws') return Promise.reject(new Error('connection reset'));
      return new Promise((_, reject) => hanging.push(reject));
    },
    heal() {
      failing = false;
      for (const reject of hanging.splice(0)) reject(new Error('request timed out'));
    },
  };
}
