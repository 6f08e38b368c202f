/**
 * Where a worker's steps wait while the partition nemesis cuts its host off. Held, the step
 * bodies that end meanwhile park before answering; released, they answer, and their writes go
 * out over whatever link there is. So a cut made while one is parked catches the worker mid-job,
 * however loaded the machine (a cut timed by watching the worker raced its short jobs).
 */
export class StepGate {
  private held = false;
  private parked: { readonly resume: () => void; readonly signal: AbortSignal }[] = [];

  /** `onParked` is told how many steps wait, at each one that parks. */
  constructor(private readonly onParked: (count: number) => void) {}

  hold(): void {
    this.held = true;
  }

  /**
   * Lets every parked step answer; answers how many of their attempts were still live (not
   * aborted on a lost lease). One live now was live at any instant since it parked: an attempt
   * that is aborted stays so.
   */
  release(): number {
    this.held = false;
    const parked = this.parked;
    this.parked = [];
    const live = parked.filter((step) => !step.signal.aborted).length;
    for (const step of parked) step.resume();
    return live;
  }

  /** Waits while held; the step of an attempt already aborted never parks. */
  pass(signal: AbortSignal): Promise<void> | undefined {
    if (!this.held || signal.aborted) return undefined;
    return new Promise((resume) => {
      this.parked.push({ resume, signal });
      this.onParked(this.parked.length);
    });
  }
}
