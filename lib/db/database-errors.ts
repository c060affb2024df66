import "server-only";
import { DataDirLockedError } from "@/lib/db/data-dir-lock";

/** The database could not be opened or did not answer: a 503 to the caller, who keeps its data and retries. */
export class DatabaseUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DatabaseUnavailableError";
  }
}

/**
 * The database answers but its schema is not ready: another instance holds the migration lock (its migration is
 * under way), so this one has not applied its migrations yet. A 503 too; the message names only that state.
 */
export class SchemaNotReadyError extends DatabaseUnavailableError {
  constructor(state: string, options?: { cause?: unknown }) {
    super(`schema not ready: ${state}`, options);
    this.name = "SchemaNotReadyError";
  }
}

// SQLSTATE classes meaning "the server cannot serve now" rather than "this query is wrong": 08 connection
// exception, 53 insufficient resources, 57P01–57P03 shutdown / cannot connect now, 58 system error.
const UNAVAILABLE_SQLSTATE = /^(08|53|57P0[1-3]|58)/;
const UNAVAILABLE_NODE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
// node-postgres's own messages for a server that stopped answering (query_timeout, connectionTimeoutMillis) or went away.
const UNAVAILABLE_MESSAGES = [/Query read timeout/i, /timeout exceeded when trying to connect/i, /Connection terminated/i, /not queryable/i, /connection error/i];

/** Whether an error (or one it wraps, as Drizzle wraps the driver's) says the database is down or too slow. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof DatabaseUnavailableError || current instanceof DataDirLockedError) return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_NODE_CODES.has(code))) return true;
    if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(current instanceof Error ? current.message : ""))) return true;
    current = current.cause;
  }
  return false;
}

/**
 * A short reason for readiness and logs, from codes only: never a host, port, URL or query (a connection error's
 * message names the server, and DATABASE_URL may carry a password).
 */
export function describeDatabaseFailure(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof DataDirLockedError) return "the embedded database's folder is in use by another process";
    if (current instanceof SchemaNotReadyError) return current.message;
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && UNAVAILABLE_NODE_CODES.has(code)) return `unreachable (${code})`;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return `refused (SQLSTATE ${code})`;
    if (/timeout/i.test(current.message)) return "no answer in time";
    current = current.cause;
  }
  return "failed";
}

/** The SQLSTATE of a database error, or of one it wraps (Drizzle wraps the driver's), if it has one. */
export function sqlstateOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = current.cause;
  }
  return undefined;
}

/**
 * A query the database refused (a constraint, a value out of range …), named by operation and SQLSTATE only: the
 * driver's error and Drizzle's "Failed query: … params: …" carry the SQL's values, such as document names and user
 * keys, so they are not kept (not even as `cause`, which loggers print).
 */
export class DatabaseQueryError extends Error {
  constructor(
    readonly operation: string,
    readonly sqlstate: string | undefined,
  ) {
    super(`database ${operation} failed (${sqlstate ? `SQLSTATE ${sqlstate}` : "no SQLSTATE"})`);
    this.name = "DatabaseQueryError";
  }
}

/** A database failure for a log line: by operation, SQLSTATE or network code, never SQL, parameters or values. */
export function describeDatabaseError(error: unknown): string {
  return error instanceof DatabaseQueryError || error instanceof DatabaseUnavailableError ? error.message : describeDatabaseFailure(error);
}
