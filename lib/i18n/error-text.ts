import { useTranslations } from "next-intl";
import { ApiError } from "@/lib/api-client";
import { NAME_MIN_LENGTH } from "@/lib/document-name";

/**
 * The user's text for an error from our route handlers, in the page's language: looked up by its stable code in the
 * `errors` namespace. The handler's own `message` is English for logs and API callers and is not shown. Anything
 * that is not an ApiError is a bug on our side: the INTERNAL text.
 */
export function useErrorText(): (error: Error) => string {
  const t = useTranslations("errors");
  return (error) => {
    if (!(error instanceof ApiError)) return t("INTERNAL");
    return t(error.code, { min: NAME_MIN_LENGTH });
  };
}
