import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PeriodicSweep } from './periodic-sweep';

describe('PeriodicSweep', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sweeps at a new interval from the moment it is set (System Setting), and not before it starts', async () => {
    let sweeps = 0;
    const sweep = new PeriodicSweep(
      async () => void (sweeps += 1),
      60_000,
      (err) => {
        throw err;
      },
    );
    sweep.setInterval(5_000);
    await vi.advanceTimersByTimeAsync(20_000);
    expect(sweeps).toBe(0);
    sweep.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sweeps).toBe(2);
    sweep.setInterval(1_000);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(sweeps).toBe(5);
    await sweep.stop();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sweeps).toBe(5);
  });
});
