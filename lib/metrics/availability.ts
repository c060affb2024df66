import "server-only";
import { gauge } from "@/lib/metrics/registry";

/** Records whether the shared Redis answers (1) or not (0); absent when REDIS_URL is unset. */
export function setRedisAvailable(available: boolean): void {
  gauge({ name: "esign_redis_up", help: "1 while the shared Redis answers, 0 during an outage" }).set(available ? 1 : 0);
}

const SCRAPE_HOOK_KEY = Symbol.for("esign.dependencyScrapeHook");
type GlobalWithHook = typeof globalThis & { [SCRAPE_HOOK_KEY]?: () => void };

const dependencyUp = () =>
  gauge({
    name: "esign_dependency_up",
    help: "Last dependency probe (at most one per 5 s): 1 ok, 0 failing",
    labelNames: ["dependency"] as const,
    collect() {
      (globalThis as GlobalWithHook)[SCRAPE_HOOK_KEY]?.();
    },
  });

/** Records the last known state of a dependency probe (auth server, API, Redis, session store): 1 ok, 0 failing. */
export function setDependencyUp(dependency: string, up: boolean): void {
  dependencyUp().set({ dependency }, up ? 1 : 0);
}

/** Runs `hook` on every scrape (to start a probe round when the last is stale); it must not wait for it. */
export function onDependencyScrape(hook: () => void): void {
  (globalThis as GlobalWithHook)[SCRAPE_HOOK_KEY] = hook;
  dependencyUp();
}

/** Records whether this instance takes traffic: 1 ready, 0 draining (what /api/health/ready answers). */
export function setInstanceReady(ready: boolean): void {
  gauge({ name: "esign_instance_ready", help: "1 while this instance's readiness answers 200, 0 while it drains" }).set(ready ? 1 : 0);
}
