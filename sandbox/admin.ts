import type { IncomingMessage, ServerResponse } from "node:http";
import type { ApiDeps } from "./api";
import { ApiError } from "./api-error";
import { faultInputSchema } from "./faults";
import { BodyTooLargeError, readBody, sendJson } from "./http-utils";

const ADMIN_BODY_LIMIT = 16 * 1024;

async function readFault(req: IncomingMessage) {
  let raw: Buffer;
  try {
    raw = await readBody(req, ADMIN_BODY_LIMIT);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new ApiError(413, "invalid_request", "request body too large");
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(raw.toString("utf8"));
  } catch {
    throw new ApiError(400, "invalid_request", "request body is not valid JSON");
  }
  const parsed = faultInputSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiError(400, "invalid_request", `${issue?.path.join(".") || "body"}: ${issue?.message}`);
  }
  return parsed.data;
}

async function listDocuments(deps: ApiDeps) {
  return Promise.all(
    deps.documents.list().map(async (document) => ({ ...document, blob: await deps.blobs.inspect(document.blobName) })),
  );
}

type AdminRoute = (deps: ApiDeps, req: IncomingMessage, res: ServerResponse) => Promise<void> | void;

const adminRoutes: Record<string, Record<string, AdminRoute>> = {
  "/_sandbox/documents": {
    GET: async (deps, _req, res) => sendJson(res, 200, { documents: await listDocuments(deps) }),
  },
  "/_sandbox/stats": {
    GET: (deps, _req, res) => sendJson(res, 200, deps.stats.snapshot()),
  },
  "/_sandbox/issued-tokens": {
    GET: (deps, _req, res) => sendJson(res, 200, { tokens: deps.issued.list() }),
  },
  "/_sandbox/faults": {
    GET: (deps, _req, res) => sendJson(res, 200, { faults: deps.faults.list() }),
    POST: async (deps, req, res) => sendJson(res, 201, { fault: deps.faults.add(await readFault(req)) }),
  },
  "/_sandbox/reset": {
    POST: (deps, req, res) => {
      req.resume();
      deps.stats.reset();
      deps.faults.reset();
      deps.documents.reset();
      sendJson(res, 200, { reset: true });
    },
  },
};

/** Inspection and fault switches for tests and demos; served on the API port only. */
export async function handleAdmin(deps: ApiDeps, path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const methods = adminRoutes[path];
  if (!methods) throw new ApiError(404, "not_found", `no route for ${path}`);
  const handler = methods[req.method ?? ""];
  if (!handler) {
    const allowed = Object.keys(methods).join(", ");
    throw new ApiError(405, "method_not_allowed", `${path} accepts ${allowed}`, { allow: allowed });
  }
  await handler(deps, req, res);
}
