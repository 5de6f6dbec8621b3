/**
 * Runs work one at a time per key (a ban list): a sync, an item write, an emptying or a deletion of
 * the same list never interleave, so the mirror always matches what Cloudflare answered last. Work on
 * different lists runs side by side. (Within one server process; BanListAccess.writing adds a lease
 * on the list in the database for the turns across processes.)
 */
export class KeyedLock {
  private readonly tails = new Map<number, Promise<unknown>>();

  run<T>(key: number, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(work, work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
