import { useTranslations } from "next-intl";
import { NAME_MIN_LENGTH } from "@/lib/document-name";

type UploadErrorCode = Parameters<ReturnType<typeof useTranslations<"uploadErrors">>>[0];
type ErrorCode = Parameters<ReturnType<typeof useTranslations<"errors">>>[0];

/**
 * An error code recorded with a document (in its "failed" event) in the page's words: storage's refusals
 * (`uploadErrors`) and our route handlers' (`errors`); null for a code the catalogs do not know. A document's history
 * and the operator pages say a failure the same way.
 */
export function useErrorReason(): (code: string) => string | null {
  const uploadErrors = useTranslations("uploadErrors");
  const errors = useTranslations("errors");
  return (code) => {
    if (uploadErrors.has(code as UploadErrorCode)) return uploadErrors(code as UploadErrorCode);
    if (errors.has(code as ErrorCode)) return errors(code as ErrorCode, { min: NAME_MIN_LENGTH });
    return null;
  };
}
