/**
 * Writes server-side sessions into the store an app under test uses, from a worker thread (bench/lib/app-worker.ts)
 * given that app's AUTH_SECRET and SESSION_STORE_DIR or REDIS_URL, through the app's own lib/session functions.
 */
import { getConfig } from "@/lib/env";
import { createSession } from "@/lib/session/sessions";
import type { TokenSet } from "../../tests/sandbox/support/oauth";
import { serveCalls } from "../lib/app-worker";
import { encodeHandleCookie } from "../lib/session-cookies";
import { sessionRecordFromTokens } from "../lib/session-from-tokens";

const handlers = {
  /** One session per token set; returns each session's cookie value (its handle, encrypted as auth.ts does). */
  async write({ tokens, cookieName }: { tokens: TokenSet[]; cookieName: string }): Promise<string[]> {
    const { authSecrets, scopes } = getConfig();
    return Promise.all(
      tokens.map(async (set) => {
        const record = sessionRecordFromTokens(set, scopes);
        const handle = await createSession(record);
        return encodeHandleCookie(handle, record.subject, authSecrets[0]!, cookieName);
      }),
    );
  },
};

export type SessionWriterHandlers = typeof handlers;

serveCalls(handlers);
