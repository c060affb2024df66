import Link from "next/link";
import { auth } from "@/auth";
import { SignInButton } from "@/components/sign-in-button";
import { SignOutButton } from "@/components/sign-out-button";
import { NavLinks } from "@/components/nav-links";
import { BrandMark } from "@/components/brand-mark";
import { getConfig } from "@/lib/env";
import { getTranslations } from "next-intl/server";
import { LanguageMenu } from "@/components/language-menu";

export async function SiteHeader() {
  const [session, t] = await Promise.all([auth(), getTranslations("header")]);
  const { brand } = getConfig();
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-3 px-4 py-3">
        <Link href="/" className="flex items-center gap-2 font-semibold text-slate-900">
          <BrandMark brand={brand} />
          <span data-testid="brand-name">{brand.name}</span>
        </Link>
        <div className="flex flex-wrap items-center gap-2 sm:gap-4">
          {session ? (
            <>
              <NavLinks />
              {/* The name exactly as the service gives it: no honorific or reordering added. */}
              <span className="hidden text-sm text-slate-600 sm:inline" data-testid="signed-in-user">
                {session.user.name ?? session.user.email ?? t("signedIn")}
              </span>
            </>
          ) : null}
          <LanguageMenu />
          {session ? <SignOutButton userKey={session.userKey} /> : <SignInButton size="sm" label={t("signIn")} />}
        </div>
      </div>
    </header>
  );
}
