/**
 * A sweep each server process runs every `everyMs` (the expiry sweep, the token checks): one at a time
 * (a tick while one runs is skipped), never keeping the process alive, and stopped by waiting for the
 * one running. What a sweep claims is its own business (the rows it takes are locked or leased, so
 * several processes may sweep side by side).
 */
export class PeriodicSweep {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;

  constructor(
    private readonly sweep: () => Promise<unknown>,
    private everyMs: number,
    private readonly onError: (err: unknown) => void,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (this.sweeping) return;
      this.sweeping = this.sweep()
        .then(() => undefined, this.onError)
        .finally(() => (this.sweeping = undefined));
    }, this.everyMs);
    this.timer.unref();
  }

  /** Sweeps every `everyMs` from now on (a running sweep finishes); System Setting's interval. */
  setInterval(everyMs: number): void {
    if (everyMs === this.everyMs) return;
    this.everyMs = everyMs;
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.start();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.sweeping;
  }
}
