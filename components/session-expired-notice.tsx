import { auth } from "@/auth";
import { Alert } from "@/components/ui/alert";
import { SignInAgainButton } from "@/components/sign-in-again-button";
import { getTranslations } from "next-intl/server";

/**
 * Shown on every page once the session can no longer call the service (refresh refused, or no refresh token).
 * Rendered on the server from the session, so no page ships next-auth's client session machinery for it; an
 * expiry while a page stays open shows on the next navigation, and any call that fails meanwhile says so itself.
 */
export async function SessionExpiredNotice() {
  const session = await auth();
  if (!session?.error) return null;
  const t = await getTranslations("sessionExpired");
  return (
    <div className="mx-auto max-w-5xl px-4 pt-4">
      <Alert tone="warning" title={t("title")} action={<SignInAgainButton />}>
        {t("body")}
      </Alert>
    </div>
  );
}
