import { IncomingMessage, type ServerResponse } from "node:http";
import { ApiError } from "./api-error";

export class BodyTooLargeError extends Error {}

/** Reads the whole body, stopping early (without buffering the rest) once it exceeds `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError();
  const chunks: Buffer[] = [];
  let received = 0;
  for await (const chunk of req) {
    received += (chunk as Buffer).length;
    if (received > limit) throw new BodyTooLargeError();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads a JSON body of at most `limit` bytes. Too large → 413, not JSON → 400, both as ApiErrors.
 */
export async function readJsonBody(req: IncomingMessage, limit: number, tooLargeMessage: string): Promise<unknown> {
  let body: Buffer;
  try {
    body = await readBody(req, limit);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new ApiError(413, "invalid_request", tooLargeMessage);
    throw error;
  }
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new ApiError(400, "invalid_request", "request body is not valid JSON");
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(payload),
    "cache-control": "no-store",
    ...headers,
  });
  res.end(payload);
}

export function sendError(
  res: ServerResponse,
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): void {
  sendJson(res, status, { error, error_description: description }, headers);
}

/**
 * A fresh request carrying an already-read body, for handing on to a library that parses the body itself
 * (oidc-provider only reads streams that are still readable).
 */
export function replayRequest(original: IncomingMessage, body: Buffer): IncomingMessage {
  const copy = new IncomingMessage(original.socket);
  copy.method = original.method;
  copy.url = original.url;
  copy.httpVersion = original.httpVersion;
  copy.httpVersionMajor = original.httpVersionMajor;
  copy.httpVersionMinor = original.httpVersionMinor;
  copy.headers = original.headers;
  copy.rawHeaders = original.rawHeaders;
  // Without it, destroying the finished copy counts as an aborted request and closes the shared socket.
  copy.complete = true;
  copy.push(body);
  copy.push(null);
  return copy;
}

/** Logs one line per request once the response is done (or the client gave up). */
export function logRequest(enabled: boolean, server: string, req: IncomingMessage, res: ServerResponse): void {
  if (!enabled) return;
  const started = performance.now();
  res.once("close", () => {
    const path = (req.url ?? "").split("?")[0];
    const outcome = res.writableFinished ? String(res.statusCode) : "aborted";
    console.log(`${server} ${req.method} ${path} ${outcome} ${Math.round(performance.now() - started)}ms`);
  });
}
