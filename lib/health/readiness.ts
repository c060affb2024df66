import "server-only";
import { parseConfig } from "@/lib/env";
import { dependencyStates, type DependencyState } from "@/lib/health/dependency-probes";
import { isDraining } from "@/lib/health/drain-state";

export type Readiness = {
  /** ready → 200; draining (after SIGTERM) or not_ready (invalid configuration) → 503. */
  status: "ready" | "draining" | "not_ready";
  checks: { name: "config" | "draining"; state: "ok" | "fail"; detail?: string }[];
  /** Reported for people and dashboards; never part of the verdict (docs/deployment.md, "Operate"). */
  dependencies: DependencyState[];
};

/**
 * Whether this instance can serve: its configuration is valid and it is not draining. The service or Redis
 * being down does not make it unready — every instance shares them, so pulling instances would turn a
 * dependency blip into an outage, while the app's own pages explain the outage to users. Answers at once.
 */
export function checkReadiness(): Readiness {
  let configOk = true;
  try {
    // Parsed afresh (not the cached config) so the check reports what this process's environment holds.
    parseConfig(process.env);
  } catch {
    configOk = false;
  }
  const draining = isDraining();
  const checks: Readiness["checks"] = [
    configOk ? { name: "config", state: "ok" } : { name: "config", state: "fail", detail: "configuration is invalid (see the start-up log)" },
    draining ? { name: "draining", state: "fail", detail: "shutting down: finishing requests in flight" } : { name: "draining", state: "ok" },
  ];
  const status = draining ? "draining" : configOk ? "ready" : "not_ready";
  return { status, checks, dependencies: configOk ? dependencyStates() : [] };
}
