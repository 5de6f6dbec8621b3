import type { SandboxState, Zone } from '../state';
import { AddedEvents } from './added-events';
import type { Batch } from './batches';
import { TrafficGenerator } from './traffic';

/** The analytics a zone has: generated traffic and events, plus the events added through the control API. */
export class Analytics {
  readonly added: AddedEvents;
  private readonly generator: TrafficGenerator;

  constructor(state: SandboxState) {
    this.added = new AddedEvents(state);
    this.generator = new TrafficGenerator(state);
  }

  securityBatches(zone: Zone, lo: number, hi: number): Batch[] {
    return [...this.generator.securityBatches(zone, lo, hi), ...this.added.of(zone.id, lo, hi)];
  }

  trafficBatches(zone: Zone, lo: number, hi: number): Batch[] {
    return this.generator.trafficBatches(zone, lo, hi);
  }

  reset(): void {
    this.generator.reset();
    this.added.clear();
  }
}
