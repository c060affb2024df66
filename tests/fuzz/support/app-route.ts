import { expect } from "vitest";
import { NextRequest } from "next/server";
import { readAnswer, type ReadAnswer } from "./sandbox-response";

/** A Next route handler as the app exports it (`GET`, `POST`, … from app/api/<resource>/route.ts). */
export type RouteHandler = (req: NextRequest, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export type AppResponse = ReadAnswer;

export interface RouteRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
}

/** Calls a handler in-process, as Next would after routing, and reads the whole answer. */
export async function callRoute(handler: RouteHandler, request: RouteRequest): Promise<AppResponse> {
  const req = new NextRequest(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body ? Buffer.from(request.body) : undefined,
  });
  return readAnswer(await handler(req, { params: Promise.resolve({}) }));
}

/** The app's error shape: JSON `{ error: { code, message } }` with the expected code. */
export function expectAppError(response: AppResponse, code: string): void {
  expect(response.headers.get("content-type") ?? "", response.text).toMatch(/^application\/json/);
  expect(response.body, response.text).toEqual({
    error: expect.objectContaining({ code, message: expect.any(String) }),
  });
}
