import { RecentList } from "./recent-list";

/**
 * The X-Request-Id of each API call the sandbox answered, newest last, so tests can prove that the id in the
 * app's response header and log line is the one the service saw.
 */
export type SeenRequest = { requestId: string | null; operation: string; status: number };

/** One per sandbox process: the API server records into it, the admin route reads it. */
export const seenRequestIds = new RecentList<SeenRequest>();
