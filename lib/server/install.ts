import "server-only";
import { probeDependenciesOnScrape } from "@/lib/health/dependency-probes";
import { setInstanceReady } from "@/lib/metrics/availability";
import { getMetricsRegistry, metricsEnabled } from "@/lib/metrics/registry";
import { startMetricsServer } from "@/lib/metrics/server";
import { installGracefulShutdown } from "@/lib/server/graceful-shutdown";
import { installHttpHooks, knownServers } from "@/lib/server/http-hooks";
import { getConfig } from "@/lib/env";
import { getLogger } from "@/lib/logging/logger";
import { monitorSessionStore, openSessionStore } from "@/lib/session/open-session-store";
import { StoreDirLockedError } from "@/lib/session/store-dir-lock";
import { startTracingFromEnv } from "@/lib/tracing/start-tracing";

/** Bound on the whole shutdown; below the 30 s most process managers wait before SIGKILL. */
const DRAIN_MS = 25_000;
/** Readiness answers 503 this long before the listener closes: a balancer probing every 2 s sees it twice. */
const READINESS_DELAY_MS = 5_000;
/** Metrics stay on loopback unless METRICS_HOSTNAME says otherwise (a container publishes them on its own network). */
const DEFAULT_METRICS_HOSTNAME = "127.0.0.1";

const msFromEnv = (name: string, fallback: number) => {
  const value = process.env[name];
  return value !== undefined && value !== "" && Number.isFinite(Number(value)) ? Number(value) : fallback;
};

/** Opens the session store, or exits when another server process holds the embedded store's folder. */
function openSessionStoreOrExit(): void {
  try {
    openSessionStore();
  } catch (error) {
    if (!(error instanceof StoreDirLockedError)) throw error;
    getLogger().fatal(`Not starting: ${error.message}`);
    process.exit(1);
  }
}

/**
 * The session store, request ids, access log lines, bounded graceful shutdown, and — when configured — metrics
 * with their listener (METRICS_PORT; nothing is recorded without it) and tracing (OTEL_EXPORTER_OTLP_ENDPOINT).
 */
export function installServerHooks(): void {
  openSessionStoreOrExit();
  startTracingFromEnv();
  installHttpHooks({ trustProxy: process.env.TRUST_PROXY === "true", trustedProxies: getConfig().rateLimits.trustedProxies });
  if (metricsEnabled()) {
    getMetricsRegistry();
    setInstanceReady(true);
    monitorSessionStore();
    probeDependenciesOnScrape();
    startMetricsServer(Number(process.env.METRICS_PORT), process.env.METRICS_HOSTNAME || DEFAULT_METRICS_HOSTNAME);
  }
  // `next dev` manages its own worker processes and restarts; only the production server drains this way.
  if (process.env.NODE_ENV === "production") {
    installGracefulShutdown(knownServers, {
      readinessDelayMs: msFromEnv("SHUTDOWN_READINESS_DELAY_MS", READINESS_DELAY_MS),
      drainMs: msFromEnv("SHUTDOWN_DRAIN_MS", DRAIN_MS),
    });
  }
}
