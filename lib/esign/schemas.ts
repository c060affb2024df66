import { z } from "zod";
import { NAME_MAX_LENGTH, NAME_TOO_LONG_MESSAGE, NAME_TOO_SHORT_MESSAGE, isDocumentNameLongEnough } from "@/lib/document-name";

export { NAME_MIN_LENGTH, NAME_TOO_SHORT_MESSAGE } from "@/lib/document-name";

/** The spec's document-creation request. An empty name is allowed; a non-empty one needs 3+ characters. */
export const createDocumentInputSchema = z
  .object({
    docid: z.null().default(null),
    name: z
      .string({ error: "Name must be text." })
      .max(NAME_MAX_LENGTH, NAME_TOO_LONG_MESSAGE)
      .refine(isDocumentNameLongEnough, NAME_TOO_SHORT_MESSAGE),
    doctype: z.string({ error: "Document type must be text." }).max(100, "Document type must be at most 100 characters."),
  })
  .strict();
export type CreateDocumentInput = z.infer<typeof createDocumentInputSchema>;

/** The spec's document-creation response; checked before any field is trusted. */
export const createDocumentResultSchema = z.object({
  itemId: z.uuid(),
  fileId: z.uuid(),
  container: z.string().min(1),
  sas: z.string().min(1),
  url: z.url(),
  subdocid: z.number().int(),
  uploadendpoint: z.url(),
});
export type CreateDocumentResult = z.infer<typeof createDocumentResultSchema>;

/** The spec leaves the user-information record's fields open: accept any JSON object. */
export const userInfoSchema = z.record(z.string(), z.unknown());
export type UserInfo = z.infer<typeof userInfoSchema>;

export const tokenResponseSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().int().positive(),
  id_token: z.string().optional(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
  token_type: z.string().regex(/^bearer$/i),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;
