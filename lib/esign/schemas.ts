import { z } from "zod";
import { NAME_MAX_LENGTH, NAME_TOO_LONG_MESSAGE, NAME_TOO_SHORT_MESSAGE, isDocumentNameLongEnough } from "@/lib/document-name";
import { hasControlCharacter } from "@/lib/input/control-characters";

export { NAME_MIN_LENGTH, NAME_TOO_SHORT_MESSAGE } from "@/lib/document-name";

/**
 * The spec's document-creation request. An empty name is allowed; a non-empty one needs 3+ characters. Control
 * characters are refused before the service is asked: the document record could not keep them (NUL), and every
 * document the service creates must be recorded.
 */
export const createDocumentInputSchema = z
  .object({
    docid: z.null().default(null),
    name: z
      .string({ error: "Name must be text." })
      .max(NAME_MAX_LENGTH, NAME_TOO_LONG_MESSAGE)
      .refine(isDocumentNameLongEnough, NAME_TOO_SHORT_MESSAGE)
      .refine((value) => !hasControlCharacter(value), "Name must not contain control characters."),
    doctype: z
      .string({ error: "Document type must be text." })
      .max(100, "Document type must be at most 100 characters.")
      .refine((value) => !hasControlCharacter(value), "Document type must not contain control characters."),
  })
  .strict();
export type CreateDocumentInput = z.infer<typeof createDocumentInputSchema>;

/**
 * GUID text as the service may send it: any case, any variant/version bits, with or without braces or hyphens.
 * The spec says "UUID format" without naming RFC 9562, and the app only shows the ids.
 */
export const guidTextSchema = z
  .string()
  .trim()
  .regex(/^\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?$/i, "must be a GUID");

/** PostgreSQL's `integer`, where the document record keeps `subdocid`. */
export const SUBDOCID_MIN = -2_147_483_648;
export const SUBDOCID_MAX = 2_147_483_647;
const subdocidNumber = z
  .number()
  .int("must be an integer")
  .min(SUBDOCID_MIN, `must be at least ${SUBDOCID_MIN}`)
  .max(SUBDOCID_MAX, `must be at most ${SUBDOCID_MAX}`);

/**
 * The spec's "integer" sub-document number, also when sent as a numeric string ("0"); negative ones included (the
 * spec sets no sign). Bounded to PostgreSQL's `integer`, the record's column: the document record takes exactly
 * what this accepts (lib/documents/document-record-input.ts reuses it), so no created document goes unrecorded.
 */
export const subdocidSchema = z.union([
  subdocidNumber,
  z.string().trim().regex(/^-?\d{1,10}$/, "must be an integer").transform(Number).pipe(subdocidNumber),
]);

/**
 * The spec's document-creation response. Only what the app uses is required: the ids it shows, the
 * sub-document number and an absolute `uploadendpoint` (which carries the SAS). `container`, `sas` and
 * `url` may be empty or missing; unknown fields are kept.
 */
export const createDocumentResultSchema = z.looseObject({
  itemId: guidTextSchema,
  fileId: guidTextSchema,
  container: z.string().nullish(),
  sas: z.string().nullish(),
  url: z.string().nullish(),
  subdocid: subdocidSchema,
  uploadendpoint: z.url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" }),
});
export type CreateDocumentResult = z.infer<typeof createDocumentResultSchema>;

/** The spec leaves the user-information record's fields open: accept any JSON object. */
export const userInfoSchema = z.record(z.string(), z.unknown());
export type UserInfo = z.infer<typeof userInfoSchema>;

/**
 * `expires_in` as a lifetime the app can use: a positive whole number of seconds, also as numeric text ("3600").
 * Anything else (null, 0, 3599.5, negative, not a number) is `undefined`, as if the service had left it out:
 * RFC 6749 §5.1 only RECOMMENDS it, and the tokens of a 200 are already issued (the old refresh token spent), so a
 * strange lifetime must not throw them away. lib/session/token-lifetime.ts then reads the JWT's `exp` or assumes
 * its default.
 */
export function usableExpiresIn(value: unknown): number | undefined {
  const seconds = typeof value === "string" && /^\s*\d+\s*$/.test(value) ? Number(value) : value;
  return typeof seconds === "number" && Number.isSafeInteger(seconds) && seconds > 0 ? seconds : undefined;
}

/** RFC 6749 §5.1's token response: any 200 with an access token keeps it, whatever its `expires_in` (above). */
export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.preprocess(usableExpiresIn, z.number().int().positive().optional()),
  id_token: z.string().optional(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
  token_type: z.string().regex(/^bearer$/i),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;
