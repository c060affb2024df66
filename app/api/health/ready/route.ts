import { NextResponse } from "next/server";
import { checkReadiness } from "@/lib/health/readiness";

export const dynamic = "force-dynamic";

/**
 * Readiness: 200 while this instance can serve (valid configuration, not draining), 503 from SIGTERM on.
 * The body also names the state of each dependency (auth server, API, Redis) from a probe cached per
 * instance; a failing dependency never turns readiness red.
 */
export function GET() {
  const readiness = checkReadiness();
  return NextResponse.json(readiness, {
    status: readiness.status === "ready" ? 200 : 503,
    headers: { "cache-control": "no-store" },
  });
}
