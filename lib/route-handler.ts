import "server-only";
import type { NextRequest, NextResponse } from "next/server";
import { toErrorResponse } from "@/lib/errors";

/** Runs a route handler body and turns anything it throws into the JSON error shape. */
export function withErrorHandling<C>(handler: (req: NextRequest, context: C) => Promise<NextResponse>) {
  return async (req: NextRequest, context: C): Promise<NextResponse> => {
    try {
      return await handler(req, context);
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}
