import "server-only";
import { hostname } from "node:os";
import pino, { type Logger } from "pino";
import { redactRecord } from "@/lib/logging/redact";

/**
 * JSON lines in production (one object per line, for the platform's log shipper); a short readable line
 * in development and the demo (LOG_FORMAT=pretty). Both written synchronously to stdout by this process:
 * pino's worker-thread transports are left out because standalone tracing does not copy their files.
 */
function prettyLine(line: string): string {
  try {
    const { level, time, msg, requestId, method, route, status, durationMs, err, ...rest } = JSON.parse(line);
    const when = new Date(time).toISOString().slice(11, 23);
    const head = method ? `${method} ${route} ${status} ${durationMs}ms` : msg;
    const extra = Object.entries(rest).filter(([k]) => !["pid", "hostname", "instance"].includes(k));
    const tail = extra.length ? ` ${JSON.stringify(Object.fromEntries(extra))}` : "";
    const error = err ? `\n  ${err.type ?? "Error"}: ${err.message}` : "";
    return `${when} ${pino.levels.labels[level] ?? level} ${requestId ? `[${requestId}] ` : ""}${head}${tail}${error}\n`;
  } catch {
    return line;
  }
}

function createLogger(): Logger {
  const pretty = (process.env.LOG_FORMAT ?? (process.env.NODE_ENV === "production" ? "json" : "pretty")) === "pretty";
  const instance = process.env.INSTANCE_ID || `${hostname()}:${process.env.PORT ?? "3000"}`;
  return pino(
    {
      level: process.env.LOG_LEVEL || "info",
      base: { instance },
      // Every record, whatever its shape, goes through the same redaction: keys first, then secret-shaped text.
      formatters: { log: (record) => redactRecord(record) as Record<string, unknown> },
    },
    pretty ? { write: (line: string) => void process.stdout.write(prettyLine(line)) } : pino.destination({ sync: true }),
  );
}

const LOGGER_KEY = Symbol.for("esign.logger");

/** The process's logger (one per process, shared by proxy, route handlers and pages via globalThis). */
export function getLogger(): Logger {
  const g = globalThis as typeof globalThis & { [LOGGER_KEY]?: Logger };
  g[LOGGER_KEY] ??= createLogger();
  return g[LOGGER_KEY];
}
