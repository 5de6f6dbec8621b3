import { AppError } from '../../app-error';
import type { Leases } from '../../db/leases';

/**
 * The longest a write waits for its list's turn, held by a write in this or another server process (a
 * sync of 500,000 items takes ~10 s): then a 409 in words, and the write is not made.
 */
export const LIST_TURN_WAIT_MS = 60_000;

/** Writes to one list (item writes, syncs, imports, emptying, deleting) take turns, across processes. */
export class ListTurns {
  constructor(
    /** One per app: the leases every process on this database takes turns with. */
    private readonly leases: Leases,
    /** Told after every write, so reads kept for a moment show it (OwnedLists). */
    private readonly lists: { changed(): void },
    /** The longest a write waits for its list's turn (tests shorten it). */
    private readonly waitMs = LIST_TURN_WAIT_MS,
  ) {}

  /**
   * Runs a write to the list after the writes queued before it, in this process and in every other on
   * this database (the lease `list-turn:<list>`, whose waiters in one process queue first come, first
   * served): a sync's load is swapped in only if no add landed meanwhile, so an add running beside it
   * would make it fail. A turn that does not come within `waitMs` is refused with a 409 in words,
   * whoever holds it. Reads see the write at once.
   */
  async writing<T>(ref: number, work: () => Promise<T>): Promise<T> {
    const busy = () =>
      new AppError(
        'CONFLICT',
        'Another change to this list (a sync, an import or a removal) is still running. Please try again in a moment.',
      );
    try {
      return await this.leases.run(`list-turn:${ref}`, { waitMs: this.waitMs, busy }, work);
    } finally {
      this.lists.changed();
    }
  }
}
