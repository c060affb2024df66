import "server-only";
import { createClient } from "redis";
import { setRedisAvailable } from "@/lib/metrics/availability";
import { getLogger } from "@/lib/logging/logger";

/**
 * Deadline for each Redis operation. Redis answers in well under a millisecond on a LAN; a few hundred ms
 * means it is stalled or gone, and a request must not wait longer than this for it before falling back.
 * Enforced here rather than with node-redis's `timeout` command option, which (6.3.1) only covers a
 * command still waiting to be written: one already sent to a stalled server waits forever.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 300;
/** Added after the deadline before giving up: see withDeadline. */
const DEADLINE_GRACE_MS = 50;
/**
 * Bounds each connection attempt (a black-holed address fails like a refused one), and how long the first
 * commands of a fresh process wait for the first connection: longer than a command, since it includes the
 * TCP (and TLS) handshake on a possibly busy machine, but still well under the 2 s a request may take.
 */
const CONNECT_TIMEOUT_MS = 1_000;
/** Reconnect backoff cap: coordination resumes within about a second of Redis coming back. */
const MAX_RECONNECT_DELAY_MS = 1_000;

function createFailFastClient(url: string) {
  return createClient({
    url,
    // A command while disconnected rejects at once instead of waiting in a queue for Redis to return.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, MAX_RECONNECT_DELAY_MS),
    },
  });
}

export type RedisClient = ReturnType<typeof createFailFastClient>;

export type RedisConnection = {
  /** False from the first failure of an outage until Redis answers again. */
  readonly available: boolean;
  /**
   * The client itself, for a library that issues its own commands (the rate limiter, lib/rate-limit): it gets no
   * deadline or outage tracking from `attempt`, so such a caller bounds its own waits.
   */
  readonly client: RedisClient;
  /** Runs one Redis operation; a failure marks the outage (one warning) and is rethrown. */
  attempt<T>(operation: (client: RedisClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

type Log = { warn(message: string): void; info(message: string): void };

/** The app's logger (JSON lines, redaction), so Redis's outage lines are like every other. */
const appLog: Log = { warn: (msg) => getLogger().warn({ msg }), info: (msg) => getLogger().info({ msg }) };

/**
 * A Redis client that fails fast instead of queueing: no offline queue (a command while disconnected
 * rejects at once), short connect and command timeouts, and reconnection in the background. It logs one
 * warning when an outage starts and one line when it ends, never one per request. The URL is never logged:
 * it may carry a password.
 */
export function connectRedis(url: string, log: Log = appLog): RedisConnection {
  const where = new URL(url).host;
  const client = createFailFastClient(url);
  let available = true;
  const failed = (error: unknown) => {
    if (!available) return;
    available = false;
    setRedisAvailable(false);
    const reason = error instanceof Error ? error.message : String(error);
    log.warn(`session store: Redis at ${where} is unavailable (${reason}); signed-in requests get a 503 until it returns (nobody is signed out)`);
  };
  const recovered = () => {
    if (available) return;
    available = true;
    setRedisAvailable(true);
    log.info(`session store: Redis at ${where} is available again`);
  };
  // Without an 'error' listener node-redis would crash the process on the first dropped connection.
  client.on("error", failed);
  client.on("ready", recovered);
  let everReady = false;
  const firstReady = new Promise<void>((resolve) => client.once("ready", () => ((everReady = true), setRedisAvailable(true), resolve())));
  // Not awaited: a Redis that is down at start-up must not hold the app back; commands fail fast meanwhile.
  client.connect().catch(failed);

  return {
    get available() {
      return available;
    },
    client,
    async attempt<T>(operation: (client: RedisClient) => Promise<T>): Promise<T> {
      try {
        // The first commands of a fresh process wait for the first connection (up to the connect timeout)
        // instead of failing on the offline check; after that, a disconnected client fails at once.
        if (!everReady && available) await withDeadline(firstReady, CONNECT_TIMEOUT_MS);
        const result = await withDeadline(operation(client), REDIS_COMMAND_TIMEOUT_MS);
        recovered();
        return result;
      } catch (error) {
        failed(error);
        throw error;
      }
    },
    async close() {
      client.removeAllListeners("error");
      client.on("error", () => {});
      if (client.isOpen) client.destroy();
    },
  };
}

class RedisTimeoutError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "RedisTimeoutError";
  }
}

function withDeadline<T>(operation: Promise<T>, ms: number): Promise<T> {
  // The command may still settle after the deadline (node-redis keeps it queued on the socket): swallow that.
  operation.catch(() => {});
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    // When this process itself was busy past the deadline (a saturated instance), the command may have gone out
    // late or its reply may be waiting unread: the deadline measured our event loop, not Redis. A short grace of
    // free event-loop time lets such a reply land; only a Redis that really does not answer times out.
    timer = setTimeout(() => {
      timer = setTimeout(() => reject(new RedisTimeoutError(ms)), DEADLINE_GRACE_MS);
    }, ms);
  });
  return Promise.race([operation, deadline]).finally(() => clearTimeout(timer));
}

const CONNECTION_KEY = Symbol.for("esign.redisConnection");

/** Closes the process-wide connection if one was opened: the last step of a graceful shutdown. */
export async function closeRedisConnection(): Promise<void> {
  await (globalThis as GlobalWithConnection)[CONNECTION_KEY]?.close();
}
type GlobalWithConnection = typeof globalThis & { [CONNECTION_KEY]?: RedisConnection };

/**
 * The process-wide connection to `url`, created on first use. On globalThis for the same reason as the
 * session store: Next's production build gives proxy, route handlers and pages separate module instances.
 */
export function getRedisConnection(url: string): RedisConnection {
  const g = globalThis as GlobalWithConnection;
  g[CONNECTION_KEY] ??= connectRedis(url);
  return g[CONNECTION_KEY];
}

/** Whether Redis answers PING within the command timeout (for health checks). Never throws. */
export async function pingRedis(connection: RedisConnection): Promise<boolean> {
  try {
    return (await connection.attempt((client) => client.ping())) === "PONG";
  } catch {
    return false;
  }
}
