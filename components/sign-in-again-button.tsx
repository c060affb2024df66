"use client";
import { usePathname } from "next/navigation";
import { signInWithEsign } from "@/app/actions";
import { buttonClasses } from "@/components/ui/button";
import { useTranslations } from "next-intl";

/** Restarts sign-in (through the same server action as the first one) and comes back to the current page. */
export function SignInAgainButton() {
  const pathname = usePathname();
  const t = useTranslations("common");
  return (
    <form action={signInWithEsign}>
      <input type="hidden" name="callbackUrl" value={pathname} />
      <button type="submit" className={buttonClasses("primary", "sm")}>
        {t("signInAgain")}
      </button>
    </form>
  );
}
