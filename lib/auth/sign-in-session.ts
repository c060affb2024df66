import "server-only";
import { headers } from "next/headers";
import type { Account } from "next-auth";
import { getConfig } from "@/lib/env";
import { verifyIdToken } from "@/lib/auth/id-token";
import type { SessionToken } from "@/lib/auth/session-token";
import { describeDevice } from "@/lib/session/device";
import { issuedTokens } from "@/lib/session/session-refresh";
import { createSession } from "@/lib/session/sessions";
import { userKeyFor } from "@/lib/auth/user-key";
import { getLogger } from "@/lib/logging/logger";
import { userRecords } from "@/lib/operators/user-records";

/**
 * Starts the server-side session of a completed sign-in, after verifying the id_token's signature, and returns
 * the cookie's content: the session's handle and display fields.
 */
export async function sessionTokenFromSignIn(token: SessionToken, account: Account): Promise<SessionToken> {
  if (!account.access_token) throw new Error("token response lacks access_token");
  const claims = account.id_token ? await verifyIdToken(account.id_token) : undefined;
  // Without either, issuedTokens reads the lifetime from the token itself (token-lifetime.ts).
  const expiresIn = account.expires_in ?? (account.expires_at ? account.expires_at - Math.floor(Date.now() / 1000) : undefined);
  const subject = account.providerAccountId;
  const handle = await createSession({
    subject,
    ...(typeof claims?.sid === "string" ? { oidcSid: claims.sid } : {}),
    ...(token.name ? { name: token.name } : {}),
    ...(token.email ? { email: token.email } : {}),
    idToken: account.id_token,
    ...issuedTokens({ access_token: account.access_token, expires_in: expiresIn, refresh_token: account.refresh_token, scope: account.scope, token_type: "Bearer" }),
    requestedScope: getConfig().scopes,
    device: describeDevice((await headers()).get("user-agent")),
  });
  // The user as a record for the operator pages: the email only if the verified id_token says it is verified. Sign-in
  // never waits on the database being up (uploads do not either); the record is written at the next sign-in then.
  await userRecords.recordUserSignIn(userKeyFor(getConfig().issuer, subject), claims ?? {}).catch((error: unknown) => {
    getLogger().warn({ msg: `sign-in: ${(error as Error).message}; the user's record is written at their next sign-in` });
  });
  return { name: token.name, email: token.email, sub: subject, sessionHandle: handle };
}
