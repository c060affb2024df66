import { NextResponse } from "next/server";

export const dynamic = "force-dynamic";

/** Liveness: the process answers HTTP. No dependency is consulted, so a service outage never restarts us. */
export function GET() {
  return NextResponse.json({ status: "ok" }, { headers: { "cache-control": "no-store" } });
}
