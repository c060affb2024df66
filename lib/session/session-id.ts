import { z } from "zod";

/** A session's public id: its store name, SHA-256 in base64url (session-keys.ts). */
export const sessionIdSchema = z.string().regex(/^[A-Za-z0-9_-]{43}$/, "That is not a session id.");
