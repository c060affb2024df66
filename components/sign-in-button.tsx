import { signInWithEsign } from "@/app/actions";
import { buttonClasses } from "@/components/ui/button";
import { useTranslations } from "next-intl";

/** Starts sign-in; `label` defaults to "Sign in with eSign" in the page's language. */
export function SignInButton({ callbackUrl, label, size = "md" }: { callbackUrl?: string; label?: string; size?: "sm" | "md" | "lg" }) {
  const t = useTranslations("signIn");
  return (
    <form action={signInWithEsign}>
      {callbackUrl ? <input type="hidden" name="callbackUrl" value={callbackUrl} /> : null}
      <button type="submit" className={buttonClasses("primary", size)}>
        {label ?? t("withService")}
      </button>
    </form>
  );
}
