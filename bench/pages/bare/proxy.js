import { NextResponse } from "next/server";

/** Stands in front of the repository's proxy.ts (see instrumentation.js) and runs for no request (the matcher). */
export function proxy() {
  return NextResponse.next();
}

export const config = { matcher: "/_no-request-goes-through-this-proxy" };
