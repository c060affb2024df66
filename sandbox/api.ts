import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { CONTAINER } from "./blob-storage";
import { blobNameFor } from "./documents";
import { findUserById, type User } from "./users";
import { logRequest, readJsonBody, sendError, sendJson } from "./http-utils";
import { handleAdmin } from "./admin";
import type { ApiDeps } from "./api-deps";
import { ApiError } from "./api-error";
import { seenRequestIds } from "./seen-request-ids";
import { createdDocumentNames } from "./created-document-names";
import { looksLikeJwt, verifyJwtAccessToken, type AccessTokenHolder } from "./jwt-access-tokens";

const API_BODY_LIMIT = 1024 * 1024;

const createDocumentRequestSchema = z.object({
  docid: z.null().optional(),
  name: z.string().refine((name) => name.length === 0 || name.length >= 3, {
    message: "name must have at least 3 characters",
  }),
  doctype: z.string(),
});


type Operation = "document" | "getuserinfo";

/**
 * JWT access tokens (identityserver style) are checked like a separate resource server would, and stay valid
 * until they expire, as IdentityServer's do; opaque ones are looked up in the store, which honours revocation.
 */
async function findAccessToken(deps: ApiDeps, value: string): Promise<AccessTokenHolder | undefined> {
  if (looksLikeJwt(value)) return verifyJwtAccessToken(value, deps.config, deps.keys).catch(() => undefined);
  const token = await deps.providers.current.AccessToken.find(value);
  // find() allows the library's 15 s clock tolerance; a resource server in the same clock must not.
  if (!token || token.isExpired) return undefined;
  return { accountId: token.accountId, scope: (token.scope ?? "").split(" ") };
}

/** RFC 6750 §3.1: no credentials → a bare challenge; bad credentials → error="invalid_token". */
async function authenticate(deps: ApiDeps, req: IncomingMessage): Promise<User> {
  const header = req.headers.authorization;
  const scheme = /^(\S+)(?:\s+(.*))?$/.exec(header?.trim() ?? "");
  if (!scheme || scheme[1]?.toLowerCase() !== "bearer") {
    throw new ApiError(401, "invalid_token", "a bearer access token is required", { "www-authenticate": "Bearer" });
  }
  const invalid = (description: string) =>
    new ApiError(401, "invalid_token", description, {
      "www-authenticate": `Bearer error="invalid_token", error_description="${description}"`,
    });
  const value = scheme[2]?.trim() ?? "";
  if (!/^[\w\-.~+/]+=*$/.test(value)) throw invalid("the access token is malformed");
  const token = await findAccessToken(deps, value);
  const user = token ? findUserById(token.accountId) : undefined;
  if (!token || !user) throw invalid("the access token is invalid, expired or revoked");
  if (!token.scope.includes("service.api")) {
    throw new ApiError(403, "insufficient_scope", "the access token lacks the service.api scope", {
      "www-authenticate": 'Bearer error="insufficient_scope", scope="service.api"',
    });
  }
  return user;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const type = (req.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
  if (type !== "application/json") {
    throw new ApiError(400, "invalid_request", "content-type must be application/json");
  }
  return readJsonBody(req, API_BODY_LIMIT, "request body exceeds 1 MiB");
}

async function createDocument(deps: ApiDeps, req: IncomingMessage, res: ServerResponse, user: User): Promise<void> {
  const parsed = createDocumentRequestSchema.safeParse(await readJson(req));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") ?? "";
    throw new ApiError(400, "invalid_request", issue?.code === "custom" ? issue.message : `${field}: ${issue?.message}`);
  }
  const fileId = deps.style.newId();
  const blobName = blobNameFor(fileId, parsed.data.name);
  const sasFault = deps.faults.takeSas();
  const { url, sas } = deps.blobs.createUploadSas(blobName, sasFault?.expired === true, sasFault?.permissions ?? "cw");
  const document = {
    itemId: deps.style.newId(),
    fileId,
    name: parsed.data.name,
    doctype: parsed.data.doctype,
    subdocid: deps.style.subdocid(),
    container: CONTAINER,
    blobName,
    createdAt: new Date().toISOString(),
    owner: user.email,
  };
  deps.documents.add(document);
  createdDocumentNames.record(document.name);
  sendJson(res, 200, deps.style.createResponse({ itemId: document.itemId, fileId, container: CONTAINER, sas, url, subdocid: document.subdocid }));
}

function getUserInfo(res: ServerResponse, user: User): void {
  if (!user.customer) throw new ApiError(400, "customer_not_found", "no customer account exists for this user");
  const { id, email, name, role, locale } = user;
  sendJson(res, 200, { customer: user.customer, user: { id, email, name, role, locale } });
}

const malformedBodies: Record<Operation, unknown> = {
  document: { itemId: 42, fileId: null, uploadendpoint: "not a url" },
  getuserinfo: { customer: "unexpected", user: [] },
};

/** Applies the next matching API fault; returns true when it answered (or deliberately never will). */
async function applyFault(deps: ApiDeps, operation: Operation, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
  const fault = deps.faults.takeApi(operation);
  if (!fault) return false;
  if (fault.delayMs !== undefined) {
    await sleep(fault.delayMs);
    return false;
  }
  if (fault.hang) {
    deps.hanging.add(res);
    res.once("close", () => deps.hanging.delete(res));
    req.resume();
    return true;
  }
  if (fault.malformed) {
    sendJson(res, 200, malformedBodies[operation]);
    return true;
  }
  const status = fault.status ?? 503;
  const code = status === 429 ? "too_many_requests" : status >= 500 ? "server_error" : "invalid_request";
  const headers: Record<string, string> = fault.retryAfterSeconds === undefined ? {} : { "retry-after": String(fault.retryAfterSeconds) };
  deps.style.sendError(res, status, code, `sandbox fault: status ${status}`, headers);
  return true;
}

const routes: Record<string, { method: string; operation: Operation }> = {
  "/api/document": { method: "POST", operation: "document" },
  "/api/getuserinfo": { method: "GET", operation: "getuserinfo" },
};

async function handleApi(deps: ApiDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? "/", "http://sandbox").pathname;
  if (path.startsWith("/_sandbox/")) {
    await handleAdmin(deps, path, req, res);
    return;
  }
  const route = routes[path];
  if (!route) throw new ApiError(404, "not_found", `no route for ${path}`);
  if (req.method !== route.method) {
    throw new ApiError(405, "method_not_allowed", `${path} accepts ${route.method} only`, { allow: route.method });
  }
  res.once("finish", () => {
    deps.stats.record(route.operation, res.statusCode);
    const requestId = req.headers["x-request-id"];
    seenRequestIds.record({ requestId: typeof requestId === "string" ? requestId : null, operation: route.operation, status: res.statusCode });
  });
  try {
    if (await applyFault(deps, route.operation, req, res)) return;
    const user = await authenticate(deps, req);
    if (route.operation === "document") await createDocument(deps, req, res, user);
    else getUserInfo(res, user);
  } catch (error) {
    // Requests refused before the body was read: drain it so the connection stays usable.
    req.resume();
    throw error;
  }
}

export function createApiServer(deps: ApiDeps): Server {
  return createServer((req, res) => {
    logRequest(deps.config.logRequests, "api ", req, res);
    handleApi(deps, req, res).catch((error: unknown) => {
      if (res.headersSent) return;
      if (error instanceof ApiError) {
        deps.style.sendError(res, error.status, error.code, error.description, error.headers);
        return;
      }
      console.error("sandbox api: unexpected error", error);
      sendError(res, 500, "server_error", "unexpected sandbox error");
    });
  });
}
