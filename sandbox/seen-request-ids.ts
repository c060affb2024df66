/**
 * The X-Request-Id of each API call the sandbox answered, newest last, so tests can prove that the id in the
 * app's response header and log line is the one the service saw. Bounded like issued-tokens.ts.
 */
export type SeenRequest = { requestId: string | null; operation: string; status: number };

const LIMIT = 10_000;

export class SeenRequestIds {
  private entries: SeenRequest[] = [];

  record(entry: SeenRequest): void {
    this.entries.push(entry);
    if (this.entries.length > LIMIT) this.entries.splice(0, this.entries.length - LIMIT);
  }

  list(): SeenRequest[] {
    return [...this.entries];
  }
}

/** One per sandbox process: the API server records into it, the admin route reads it. */
export const seenRequestIds = new SeenRequestIds();
