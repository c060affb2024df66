import { decodeJwt } from "jose";
import type { SessionRecord } from "@/lib/session/session-record";
import { issuedTokens } from "@/lib/session/session-refresh";
import type { TokenSet } from "../../tests/sandbox/support/oauth";

/**
 * The record auth.ts's sign-in (lib/auth/sign-in-session.ts) would store for a sandbox token set, without the
 * id_token's signature check. Loads server-only modules: import it from an app worker (app-worker.ts) only.
 */
export function sessionRecordFromTokens(tokens: TokenSet, requestedScope: string): SessionRecord {
  const claims = decodeJwt(tokens.id_token);
  return {
    subject: String(claims.sub),
    ...(typeof claims.sid === "string" ? { oidcSid: claims.sid } : {}),
    name: "Alice Example",
    email: "alice@example.com",
    idToken: tokens.id_token,
    ...issuedTokens({ ...tokens, token_type: "Bearer" }),
    requestedScope,
    device: { browser: "Bench", os: "Linux" },
  };
}
