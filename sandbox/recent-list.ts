/**
 * The last `limit` things the sandbox recorded, oldest first: what tests read back through the admin routes.
 * Kept across resets (what an earlier test left is still evidence) and bounded, so a long demo cannot grow it.
 */
export class RecentList<T> {
  private entries: T[] = [];

  constructor(private readonly limit = 10_000) {}

  record(entry: T): void {
    this.entries.push(entry);
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
  }

  list(): T[] {
    return [...this.entries];
  }
}
