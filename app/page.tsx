import { Link } from "@/components/ui/link";
import { getTranslations } from "next-intl/server";
import { auth } from "@/auth";
import { AuthErrorAlert } from "@/components/auth-error-alert";
import { SignInButton } from "@/components/sign-in-button";
import { UseAnotherAccountButton } from "@/components/use-another-account-button";
import { buttonClasses } from "@/components/ui/button";
import { Alert } from "@/components/ui/alert";
import { SIGNED_OUT_STATE } from "@/lib/auth/signed-out";

const features = ["signIn", "account", "upload"] as const;

type Params = { error?: string | string[]; state?: string | string[] };

export default async function HomePage({ searchParams }: { searchParams: Promise<Params> }) {
  const [session, { error, state }, t] = await Promise.all([auth(), searchParams, getTranslations("home")]);
  const errorCode = Array.isArray(error) ? error[0] : error;
  // Back from signing out (lib/auth/signed-out.ts); a signed-in visitor to the same address is told nothing.
  const signedOut = !session && (Array.isArray(state) ? state[0] : state) === SIGNED_OUT_STATE;
  // The name as the service gives it (no reordering, no honorific beyond what the language's sentence needs).
  const name = session?.user.name ?? session?.user.email;

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-8 py-8 text-center sm:py-16">
      <div className="mx-auto flex w-full max-w-3xl flex-col gap-4 text-left empty:hidden">
        {errorCode ? <AuthErrorAlert code={errorCode} /> : null}
        {signedOut ? <Alert tone="success" title={t("signedOut")} data-testid="signed-out" /> : null}
      </div>
      <div className="mx-auto flex max-w-3xl flex-col gap-4">
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
      {/* Three columns only where each is wide enough (~280 px) for a Japanese paragraph to break evenly by phrase. */}
      <ul className="grid gap-4 pt-4 text-left lg:grid-cols-3">
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
