import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { Span } from "@opentelemetry/api";

/** The request's id, and its trace span when tracing is on (lib/tracing/spans.ts). */
type RequestContext = { requestId: string; span?: Span };

/**
 * The request being served, set by the HTTP hook (lib/server/http-hooks.ts) around all of Next's work for
 * that request. On globalThis because Next's production build gives proxy.ts, route handlers and pages
 * separate module instances in one process; they must all see the same store.
 */
const STORE_KEY = Symbol.for("esign.requestContext");

function store(): AsyncLocalStorage<RequestContext> {
  const g = globalThis as typeof globalThis & { [STORE_KEY]?: AsyncLocalStorage<RequestContext> };
  g[STORE_KEY] ??= new AsyncLocalStorage<RequestContext>();
  return g[STORE_KEY];
}

/** Runs `fn` as part of the request with this id (and span). */
export function runWithRequestId<T>(requestId: string, fn: () => T, span?: Span): T {
  return store().run({ requestId, span }, fn);
}

/** The id of the request being served, or undefined outside one (start-up, background work). */
export function currentRequestId(): string | undefined {
  return store().getStore()?.requestId;
}

/** The span of the request being served, when tracing is on: the parent of its calls to the service. */
export function currentRequestSpan(): Span | undefined {
  return store().getStore()?.span;
}

// nginx's $request_id is 32 hex characters; anything short, plain and printable is accepted, nothing else,
// so a client cannot write arbitrary text into our logs or the service's.
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * The request id to use: the one the trusted reverse proxy sent (X-Request-Id), so its access log, ours
 * and the service's line up; otherwise a new one. Without a trusted proxy any incoming id is ignored.
 */
export function resolveRequestId(incoming: string | string[] | undefined, trustProxy: boolean): string {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  if (trustProxy && value && ACCEPTED_ID.test(value)) return value;
  return randomUUID();
}
