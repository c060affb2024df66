import "server-only";
import { createHash } from "node:crypto";

/**
 * The key under which the browser keeps one user's data (recent documents, interrupted uploads): a hash
 * of the issuer and the subject (`sub`), the one claim every id_token carries and that never changes for
 * the user. Never the email or name, which an id_token may lack (all users would then share one key) or
 * which may change. The hash keeps the subject itself out of the browser's storage.
 */
export function userKeyFor(issuer: string, subject: string): string {
  return createHash("sha256").update(`${issuer}\n${subject}`).digest("base64url").slice(0, 22);
}
