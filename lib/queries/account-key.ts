import type { ErrorBody } from "@/lib/errors";

/** The account record's query key: shared by the client's query and the server's prefetch during the page render. */
export const accountQueryKey = ["account"] as const;

/** Why the server could not fetch the record during the render, when the user has to act on it (a 4xx). */
export type AccountFailure = { status: number; code: ErrorBody["error"]["code"]; message: string };
