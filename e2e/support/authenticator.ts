import { Secret, TOTP } from 'otpauth';

const STEP_MS = 30_000;
const stepAt = (ms: number) => Math.floor(ms / STEP_MS);

/**
 * A person's authenticator app, for specs that sign in with two-factor. The server takes each 30-second
 * step's code once, and the steps either side of the current one (a clock 30 s off): so the next code is
 * the first unused step from now, the next step's when this one was used, and nobody waits for the clock.
 */
export class Authenticator {
  private lastStep = -1;

  constructor(private readonly secret: string) {}

  /** A code the server has not taken yet. */
  nextCode(): string {
    const now = stepAt(Date.now());
    const step = Math.max(now, this.lastStep + 1);
    if (step > now + 1) {
      throw new Error('Three codes within one 30-second step: the server takes only the next step ahead.');
    }
    this.lastStep = step;
    return TOTP.generate({ secret: Secret.fromBase32(this.secret), timestamp: step * STEP_MS });
  }
}
