import { z } from "zod";
import { ERASE_CONFIRMATION } from "@/lib/erasure/erase-confirmation";

export const userErasureInputSchema = z.strictObject({
  confirm: z.literal(ERASE_CONFIRMATION, { error: `confirm must be "${ERASE_CONFIRMATION}"` }),
});

/** The longest reason an operator may type: a sentence or two ("Phone call on 28 Nov, ticket 4411"). */
export const ERASE_REASON_MAX = 300;

/**
 * An operator's erasure: why, in their words. Required, at most ERASE_REASON_MAX characters after trimming, and
 * without an email address: the reason goes to the access log, which must not name what the erasure removed.
 */
export const operatorErasureInputSchema = z.strictObject({
  reason: z
    .string({ error: "reason is required" })
    .trim()
    .min(3, { error: "reason must be at least 3 characters" })
    .max(ERASE_REASON_MAX, { error: `reason must be at most ${ERASE_REASON_MAX} characters` })
    .refine((reason) => !reason.includes("@"), { error: "reason must not contain an email address" }),
});
