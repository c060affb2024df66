import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { auth } from "@/auth";
import { AuthErrorAlert } from "@/components/auth-error-alert";
import { SignInButton } from "@/components/sign-in-button";
import { UseAnotherAccountButton } from "@/components/use-another-account-button";
import { buttonClasses } from "@/components/ui/button";

const features = ["signIn", "account", "upload"] as const;

export default async function HomePage({ searchParams }: { searchParams: Promise<{ error?: string | string[] }> }) {
  const [session, { error }, t] = await Promise.all([auth(), searchParams, getTranslations("home")]);
  const errorCode = Array.isArray(error) ? error[0] : error;
  // The name as the service gives it (no reordering, no honorific beyond what the language's sentence needs).
  const name = session?.user.name ?? session?.user.email;

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8 py-8 text-center sm:py-16">
      {errorCode ? <AuthErrorAlert code={errorCode} /> : null}
      <div className="flex flex-col gap-4">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
          {session ? (name ? t("welcome", { name }) : t("welcomeNoName")) : t("title")}
        </h1>
        <p className="text-lg text-slate-600">{t("intro")}</p>
      </div>
      <div className="flex flex-wrap justify-center gap-3">
        {session ? (
          <Link href="/account" className={buttonClasses("primary", "lg")}>
            {t("goToAccount")}
          </Link>
        ) : (
          <>
            <SignInButton size="lg" />
            <UseAnotherAccountButton size="lg" />
          </>
        )}
      </div>
      <ul className="grid gap-4 pt-4 text-left sm:grid-cols-3">
        {features.map((feature) => (
          <li key={feature} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
            <h2 className="font-semibold text-slate-900">{t(`${feature}Title`)}</h2>
            <p className="mt-1 text-sm text-slate-600">{t(`${feature}Body`)}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
