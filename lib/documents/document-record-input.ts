import { z } from "zod";
import { DOCUMENT_STATUSES } from "@/lib/db/schema";
import { NAME_MAX_LENGTH } from "@/lib/document-name";

/**
 * What the browser may report about its documents (POST /api/documents/{itemId}/events, POST /api/documents/import),
 * validated before anything reaches the database. Every object is strict and every string is bounded and shaped,
 * so that a SAS URL, `sas`, `uploadendpoint` or a token has nowhere to go: those are credentials, and they expire.
 * No `server-only`: the browser imports the types (never the schemas: zod stays out of client bundles).
 */

/** Text a person typed (a name, a type) or the service chose (a container): refused when it carries a credential. */
const CREDENTIAL_PATTERNS = [
  // A SAS signature (?sv=…&sig=…), whatever else surrounds it.
  /sig=/i,
  // A JWT (header.payload): an access or id token.
  /eyJ[\w-]{4,}\.eyJ[\w-]{4,}/,
];
export const CREDENTIAL_REFUSED_MESSAGE = "must not contain a signature or a token";

function plainText(max: number) {
  return z
    .string()
    .max(max)
    .refine((value) => !CREDENTIAL_PATTERNS.some((pattern) => pattern.test(value)), CREDENTIAL_REFUSED_MESSAGE);
}

/** A GUID as the service sends it (any case, with or without braces or hyphens), as used in the app's URLs. */
export const documentIdSchema = z
  .string()
  .regex(/^\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?$/i, "must be a document id (GUID)");

const md5HexSchema = z
  .string()
  .regex(/^[0-9a-f]{32}$/i, "must be an MD5 in hex")
  .transform((value) => value.toLowerCase());
/** An error code as the UI shows it (UPLOAD_FORBIDDEN, Md5Mismatch …): letters, digits, `_ . -` only. */
const errorCodeSchema = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, "must be an error code");
const bytesSchema = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const durationSchema = z.number().int().min(0).max(7 * 24 * 3_600_000);
/** How the bytes went: one PUT, staged blocks, or one PUT after storage refused blocks. */
const modeSchema = z.enum(["single", "blocks", "fallback"]);
const atSchema = z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time" });

/** The facts of a document as the service created it (no `sas`, `uploadendpoint` or `url`). */
export const createdDocumentFactsSchema = z.strictObject({
  fileId: documentIdSchema,
  subdocid: z.number().int().min(0).max(2_147_483_647),
  container: plainText(255).nullish(),
  name: plainText(NAME_MAX_LENGTH),
  doctype: plainText(100),
  size: bytesSchema.nullish(),
});
export type CreatedDocumentFacts = z.infer<typeof createdDocumentFactsSchema>;

const eventBase = { id: z.uuid("must be a UUID"), at: atSchema };

/** One reported event. `removed` and `imported` are the server's own (DELETE, import) and cannot be reported. */
export const documentEventInputSchema = z.discriminatedUnion("type", [
  z.strictObject({ ...eventBase, type: z.literal("created"), ...createdDocumentFactsSchema.shape }),
  z.strictObject({ ...eventBase, type: z.literal("upload_started"), mode: modeSchema, bytes: bytesSchema.optional() }),
  z.strictObject({ ...eventBase, type: z.literal("resumed"), mode: modeSchema.optional(), bytes: bytesSchema.optional() }),
  z.strictObject({
    ...eventBase,
    type: z.literal("uploaded"),
    mode: modeSchema.optional(),
    bytes: bytesSchema,
    md5: md5HexSchema.nullish(),
    durationMs: durationSchema.optional(),
  }),
  z.strictObject({
    ...eventBase,
    type: z.literal("failed"),
    errorCode: errorCodeSchema,
    mode: modeSchema.optional(),
    bytes: bytesSchema.optional(),
    durationMs: durationSchema.optional(),
  }),
  z.strictObject({ ...eventBase, type: z.literal("abandoned"), bytes: bytesSchema.optional() }),
  z.strictObject({ ...eventBase, type: z.literal("replaced"), replacedByItemId: documentIdSchema }),
]);
export type DocumentEventInput = z.infer<typeof documentEventInputSchema>;

export const MAX_EVENTS_PER_REPORT = 50;

export const documentEventsReportSchema = z.strictObject({
  events: z.array(documentEventInputSchema).min(1, "at least one event").max(MAX_EVENTS_PER_REPORT, `at most ${MAX_EVENTS_PER_REPORT} events`),
});
export type DocumentEventsReport = z.infer<typeof documentEventsReportSchema>;

/** The browser's old list entry (lib/document-history.ts RecentDocument), validated for the one-time import. */
export const importedDocumentSchema = z.strictObject({
  name: plainText(NAME_MAX_LENGTH),
  doctype: plainText(100),
  itemId: documentIdSchema,
  fileId: documentIdSchema,
  subdocid: z.number().int().min(0).max(2_147_483_647),
  size: bytesSchema,
  md5Hex: md5HexSchema.nullable(),
  uploadedAt: atSchema,
  replacedItemId: documentIdSchema.optional(),
});
export type ImportedDocument = z.infer<typeof importedDocumentSchema>;

/** The old list kept at most 20 entries (RECENT_DOCUMENTS_LIMIT). */
export const MAX_IMPORTED_DOCUMENTS = 20;

export const documentsImportSchema = z.strictObject({
  documents: z.array(importedDocumentSchema).max(MAX_IMPORTED_DOCUMENTS, `at most ${MAX_IMPORTED_DOCUMENTS} documents`),
});

/** The list's filters, from the query string. */
export const documentListQuerySchema = z.strictObject({
  q: z.string().trim().max(200).optional(),
  doctype: z.string().max(100).optional(),
  status: z.enum(DOCUMENT_STATUSES).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type DocumentListQuery = z.infer<typeof documentListQuerySchema>;
