import { Link } from "@/components/ui/link";
import { auth } from "@/auth";
import { SignInButton } from "@/components/sign-in-button";
import { SignOutButton } from "@/components/sign-out-button";
import { NavLinks } from "@/components/nav-links";
import { BrandMark } from "@/components/brand-mark";
import { HeaderMenu } from "@/components/header-menu";
import { getConfig } from "@/lib/env";
import { getTranslations } from "next-intl/server";
import { LanguageMenu } from "@/components/language-menu";
import { getOperator } from "@/lib/operators/operator-access";

/** One row at every width: signed in, a phone gets the navigation, language and sign-out behind a Menu button. */
export async function SiteHeader() {
  const [session, t] = await Promise.all([auth(), getTranslations("header")]);
  const { brand } = getConfig();
  // Decided per request on the server, like every operator page: others get no link, no words, no address.
  const operator = session ? await getOperator() : null;
  const operatorLinks = operator ? [{ href: "/operator", label: (await getTranslations("operator.nav"))("headerLink") }] : [];
  return (
    <header className="relative border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-5xl items-center justify-between gap-3 px-4 py-3">
        <Link href="/" className="flex min-w-0 items-center gap-2 font-semibold text-slate-900">
          <BrandMark brand={brand} />
          <span data-testid="brand-name" className="truncate">{brand.name}</span>
        </Link>
        {session ? (
          <HeaderMenu>
            <NavLinks extra={operatorLinks} />
            {/* The name exactly as the service gives it: no honorific or reordering added. */}
            <span className="px-3 text-sm text-slate-600 sm:px-0" data-testid="signed-in-user">
              {session.user.name ?? session.user.email ?? t("signedIn")}
            </span>
            {/* On a phone the language menu goes right, so that its list opens inside the screen. */}
            <div className="flex flex-row-reverse items-center justify-between gap-2 sm:flex-row sm:gap-4">
              <LanguageMenu />
              <SignOutButton userKey={session.userKey} />
            </div>
          </HeaderMenu>
        ) : (
          <div className="flex shrink-0 items-center gap-2 sm:gap-4">
            <LanguageMenu />
            <SignInButton size="sm" label={t("signIn")} />
          </div>
        )}
      </div>
    </header>
  );
}
