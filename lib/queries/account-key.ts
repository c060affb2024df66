import type { ErrorBody } from "@/lib/errors";

/** The account record's query key. */
export const accountQueryKey = ["account"] as const;

/** Why the server could not fetch the record during the render, when the user has to act on it (a 4xx). */
export type AccountFailure = { status: number; code: ErrorBody["error"]["code"]; message: string };

/** What the server's render hands the account query: the record or a refusal, and when it was fetched. */
export type InitialAccount = { record: Record<string, unknown> | null; failure: AccountFailure | null; fetchedAt: number };
