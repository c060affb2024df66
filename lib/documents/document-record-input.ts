import { z } from "zod";
import { DOCUMENT_STATUSES } from "@/lib/db/schema";
import { REPORTED_EVENT_TYPES, type ReportedEventType } from "@/lib/documents/document-event-types";
import { NAME_MAX_LENGTH } from "@/lib/document-name";
import { createDocumentResultSchema } from "@/lib/esign/schemas";
import { CONTROL_CHARACTERS_MESSAGE, hasControlCharacter } from "@/lib/input/control-characters";
import { redactCredentials } from "@/lib/security/credential-text";

/**
 * What the browser may report about its documents (POST /api/documents/{itemId}/events, POST /api/documents/import),
 * validated before anything reaches the database. Every object is strict and every string is bounded and shaped,
 * so that a SAS URL, `sas`, `uploadendpoint` or a token has no field to go in: those are credentials, and they expire.
 * No `server-only`: the browser imports the types (never the schemas: zod stays out of client bundles).
 */

/**
 * Text a person typed (a name, a type) or the service chose (a container), as it is kept: control characters are
 * refused (PostgreSQL cannot store NUL), and a credential-shaped part (a SAS query, a JWT) is replaced by
 * `[redacted]`, so the record is kept without it instead of the document going unrecorded.
 */
function recordText(max: number) {
  return z.string().max(max).refine((value) => !hasControlCharacter(value), CONTROL_CHARACTERS_MESSAGE).transform(redactCredentials);
}

/** A GUID as the service sends it (any case, with or without braces or hyphens), as used in the app's URLs. */
export const documentIdSchema = z
  .string()
  .regex(/^\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?$/i, "must be a document id (GUID)");

/** A document route's path parameters (`/api/documents/{itemId}/…`): a bad id is a 400 naming `itemId`. */
export const documentPathSchema = z.object({ itemId: documentIdSchema });

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
/**
 * Whether a date-time text is a time in the years 1000–9999 in UTC: what every layer keeps as it is. PostgreSQL has
 * no year 0, `Date#toISOString` writes a year past 9999 as `+010000`, and drizzle reads a `timestamptz` back with
 * `new Date("0099-02-28 00:00:00+00")`, which takes years 1–99 for 19xx/20xx (a year 0001 document broke the list).
 */
export function isStorableTime(value: string): boolean {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return false;
  const year = new Date(time).getUTCFullYear();
  return year >= 1000 && year <= 9999;
}

/**
 * An ISO 8601 date-time in the years 1000–9999 (isStorableTime): a year 0000 or 10000 is refused here with the
 * field named, not by the database with a 500.
 */
export const atSchema = z.iso
  .datetime({ offset: true, error: "must be an ISO 8601 date-time" })
  .refine((value) => isStorableTime(value), "must be a time between the years 1000 and 9999");

/**
 * The facts of a document as the service created it (no `sas`, `uploadendpoint` or `url`). `fileId` and `subdocid`
 * are the service response's own schemas (lib/esign/schemas.ts): whatever the service may return, the record takes.
 */
export const createdDocumentFactsSchema = z.strictObject({
  ...createDocumentResultSchema.pick({ fileId: true, subdocid: true }).shape,
  container: recordText(255).nullish(),
  name: recordText(NAME_MAX_LENGTH),
  doctype: recordText(100),
  size: bytesSchema.nullish(),
});
export type CreatedDocumentFacts = z.infer<typeof createdDocumentFactsSchema>;

const eventBase = { id: z.uuid("must be a UUID"), at: atSchema };

/**
 * Each reported type's event, keyed by ReportedEventType: a reported type without its schema here fails typecheck.
 * `removed` and `imported` are the server's own (DELETE, import) and cannot be reported.
 */
const reportedEventSchemas = {
  created: z.strictObject({ ...eventBase, type: z.literal("created"), ...createdDocumentFactsSchema.shape }),
  upload_started: z.strictObject({ ...eventBase, type: z.literal("upload_started"), mode: modeSchema, bytes: bytesSchema.optional() }),
  resumed: z.strictObject({ ...eventBase, type: z.literal("resumed"), mode: modeSchema.optional(), bytes: bytesSchema.optional() }),
  uploaded: z.strictObject({
    ...eventBase,
    type: z.literal("uploaded"),
    mode: modeSchema.optional(),
    bytes: bytesSchema,
    md5: md5HexSchema.nullish(),
    durationMs: durationSchema.optional(),
  }),
  failed: z.strictObject({
    ...eventBase,
    type: z.literal("failed"),
    errorCode: errorCodeSchema,
    mode: modeSchema.optional(),
    bytes: bytesSchema.optional(),
    durationMs: durationSchema.optional(),
  }),
  abandoned: z.strictObject({ ...eventBase, type: z.literal("abandoned"), bytes: bytesSchema.optional() }),
  replaced: z.strictObject({ ...eventBase, type: z.literal("replaced"), replacedByItemId: documentIdSchema }),
} satisfies { [T in ReportedEventType]: z.ZodObject<{ type: z.ZodLiteral<T> } & z.ZodRawShape> };

type ReportedEventSchema = (typeof reportedEventSchemas)[ReportedEventType];

/** One reported event, of any type in REPORTED_EVENT_TYPES. */
export const documentEventInputSchema = z.discriminatedUnion(
  "type",
  REPORTED_EVENT_TYPES.map((type) => reportedEventSchemas[type]) as [ReportedEventSchema, ...ReportedEventSchema[]],
);
export type DocumentEventInput = z.infer<typeof documentEventInputSchema>;

export const MAX_EVENTS_PER_REPORT = 50;

export const documentEventsReportSchema = z.strictObject({
  events: z.array(documentEventInputSchema).min(1, "at least one event").max(MAX_EVENTS_PER_REPORT, `at most ${MAX_EVENTS_PER_REPORT} events`),
});
export type DocumentEventsReport = z.infer<typeof documentEventsReportSchema>;

/** The browser's old list entry (lib/document-history.ts RecentDocument), validated for the one-time import. */
export const importedDocumentSchema = z.strictObject({
  name: recordText(NAME_MAX_LENGTH),
  doctype: recordText(100),
  itemId: documentIdSchema,
  fileId: createDocumentResultSchema.shape.fileId,
  subdocid: createDocumentResultSchema.shape.subdocid,
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
  q: z.string().trim().max(200).refine((value) => !hasControlCharacter(value), CONTROL_CHARACTERS_MESSAGE).optional(),
  doctype: z.string().max(100).refine((value) => !hasControlCharacter(value), CONTROL_CHARACTERS_MESSAGE).optional(),
  status: z.enum(DOCUMENT_STATUSES).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type DocumentListQuery = z.infer<typeof documentListQuerySchema>;
