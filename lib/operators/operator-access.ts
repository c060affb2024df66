import "server-only";
import type { NextRequest } from "next/server";
import type { Operator } from "@/lib/operators/types";

/**
 * The operator behind the page being rendered, or notFound() (a 404, as for a page that does not exist) for anyone
 * else: signed out, session ended, or not an operator. Decided per request from the live session and the user's
 * verified email; nothing is cached beyond the request.
 */
export async function requireOperator(): Promise<Operator> {
  throw new Error("not implemented");
}

/** The same for a route handler: throws AppError 404 NOT_FOUND for anyone but an operator. */
export async function requireOperatorForRequest(req: NextRequest): Promise<Operator> {
  void req;
  throw new Error("not implemented");
}
