import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { getTranslations } from "next-intl/server";
import { AuthErrorAlert } from "@/components/auth-error-alert";
import { SignInButton } from "@/components/sign-in-button";
import { buttonClasses } from "@/components/ui/button";
import { SupportContact } from "@/components/support-contact";
import { getConfig } from "@/lib/env";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("authErrorPage");
  return { title: t("metaTitle") };
}

export default async function AuthErrorPage({ searchParams }: { searchParams: Promise<{ error?: string | string[] }> }) {
  const [{ error }, t, common] = await Promise.all([searchParams, getTranslations("authErrorPage"), getTranslations("common")]);
  const code = (Array.isArray(error) ? error[0] : error) ?? "Default";
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-6 py-8">
      <h1 className="text-2xl font-bold text-slate-900">{t("title")}</h1>
      <AuthErrorAlert code={code} />
      <div className="flex flex-wrap gap-3">
        <SignInButton label={code === "LinkExpired" ? common("signInAgain") : common("tryAgain")} />
        <Link href="/" className={buttonClasses("secondary")}>
          {common("backToStart")}
        </Link>
      </div>
      <SupportContact support={getConfig().brand.support} />
    </div>
  );
}
