import { NextResponse } from "next/server";
import { checkReadiness } from "@/lib/health/readiness";

export const dynamic = "force-dynamic";

/** Readiness: 200 when configuration, auth server, API (and Redis when configured) all answer; else 503 naming the failed checks. */
export async function GET() {
  const readiness = await checkReadiness();
  return NextResponse.json(readiness, {
    status: readiness.status === "ready" ? 200 : 503,
    headers: { "cache-control": "no-store" },
  });
}
