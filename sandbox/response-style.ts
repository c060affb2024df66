import type { ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import { sendError } from "./http-utils";

/**
 * How the API words its answers. `standard` is what the rest of this guide shows. `variant` stays within the
 * spec but differs wherever it leaves the format open, so the app is tested against that too:
 * ids are upper-case GUIDs with a non-RFC 9562 variant, `subdocid` is the string "0", `sas` is empty (the
 * signature is only in `uploadendpoint`), and 400 answers are plain text.
 */
export const responseStyles = ["standard", "variant"] as const;
export type ResponseStyle = (typeof responseStyles)[number];

/** The current style: starts as configured, switched at runtime by the admin route, restored by reset. */
export class ResponseStyleSwitch {
  current: ResponseStyle;

  constructor(private readonly initial: ResponseStyle) {
    this.current = initial;
  }

  reset(): void {
    this.current = this.initial;
  }

  /** A new document or file id in this style. */
  newId(): string {
    const id = randomUUID();
    // Variant nibble "c" (Microsoft's reserved range) instead of RFC 9562's 8–b.
    return this.current === "variant" ? `${id.slice(0, 19)}c${id.slice(20)}`.toUpperCase() : id;
  }

  subdocid(): number {
    // The spec never shows a document with several sub-documents: standard counts from 1, variant from 0.
    return this.current === "variant" ? 0 : 1;
  }

  /** The create-document answer's body in this style. */
  createResponse(body: { itemId: string; fileId: string; container: string; sas: string; url: string; subdocid: number }) {
    const uploadendpoint = `${body.url}?${body.sas}`;
    if (this.current === "standard") return { ...body, uploadendpoint };
    return { ...body, sas: "", subdocid: String(body.subdocid), uploadendpoint };
  }

  /** An API error in this style: JSON `{error, error_description}`, or in variant style a 400 as plain text. */
  sendError(res: ServerResponse, status: number, code: string, description: string, headers: Record<string, string> = {}): void {
    if (this.current === "standard" || status !== 400) {
      sendError(res, status, code, description, headers);
      return;
    }
    const text = `Bad Request: ${description}`;
    res.writeHead(status, {
      "content-type": "text/plain; charset=utf-8",
      "content-length": Buffer.byteLength(text),
      "cache-control": "no-store",
      ...headers,
    });
    res.end(text);
  }
}
