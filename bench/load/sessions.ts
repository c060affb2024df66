import type { RunningSandbox } from "../../sandbox/index";
import { partnerTokens, type TokenSet } from "../../tests/sandbox/support/oauth";
import { startAppWorker } from "../lib/app-worker";
import { encodeTokenCookie, SESSION_COOKIE } from "../lib/session-cookies";
import type { SessionWriterHandlers } from "./session-writer";

// Sign-ins walk authorize → sign-in → consent → token; a few at a time keeps the sandbox responsive.
const SIGN_IN_CONCURRENCY = 8;

/** Signs alice in `count` times, so every session has its own grant and tokens. */
export async function signInTokens(sandbox: RunningSandbox, count: number): Promise<TokenSet[]> {
  const sets: TokenSet[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      sets[index] = await partnerTokens(sandbox);
    }
  };
  await Promise.all(Array.from({ length: SIGN_IN_CONCURRENCY }, worker));
  return sets;
}

/** `Cookie` headers of the design before server-side sessions (main at e44ffe4): the tokens in the cookie. */
export async function tokenCookies(tokens: TokenSet[], authSecret: string, cookieName = SESSION_COOKIE): Promise<string[]> {
  return Promise.all(tokens.map(async (set) => `${cookieName}=${await encodeTokenCookie(set, authSecret, cookieName)}`));
}

/**
 * Stores one server-side session per token set where an app configured with `appEnv` (AUTH_SECRET and
 * SESSION_STORE_DIR or REDIS_URL) finds it, and returns the `Cookie` headers that lead to them. The file store
 * indexes its directory when the app starts, so write into it before starting the app.
 */
export async function storedSessionCookies(tokens: TokenSet[], appEnv: Record<string, string>, cookieName = SESSION_COOKIE): Promise<string[]> {
  const writer = startAppWorker<SessionWriterHandlers>(new URL("./session-writer.ts", import.meta.url), { PATH: process.env.PATH, ...appEnv });
  try {
    const values = await writer.call("write", { tokens, cookieName });
    return values.map((value) => `${cookieName}=${value}`);
  } finally {
    await writer.stop();
  }
}
