import "server-only";
import { createHash, randomBytes } from "node:crypto";

/** A new session handle for the cookie: 256 random bits. */
export function newSessionHandle(): string {
  return randomBytes(32).toString("base64url");
}

/**
 * Store names are hashes, so that the store's contents (key names included) never hold a handle that would
 * open a session, a subject or the service's session id. Plain SHA-256 rather than an HMAC under AUTH_SECRET:
 * handles carry 256 random bits, and instances on different secrets during a rotation must agree on the names.
 */
export function storeName(kind: "session" | "subject" | "oidc-sid" | "logout-jti", value: string): string {
  return createHash("sha256").update(`${kind}\u0000${value}`).digest("base64url");
}
