import Link from "next/link";
import { auth } from "@/auth";
import { AuthErrorAlert } from "@/components/auth-error-alert";
import { SignInButton } from "@/components/sign-in-button";
import { UseAnotherAccountButton } from "@/components/use-another-account-button";
import { buttonClasses } from "@/components/ui/button";

export default async function HomePage({ searchParams }: { searchParams: Promise<{ error?: string | string[] }> }) {
  const [session, { error }] = await Promise.all([auth(), searchParams]);
  const errorCode = Array.isArray(error) ? error[0] : error;

  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-8 py-8 text-center sm:py-16">
      {errorCode ? <AuthErrorAlert code={errorCode} /> : null}
      <div className="flex flex-col gap-4">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
          {session ? `Welcome back, ${session.user.name ?? session.user.email ?? "there"}` : "E-signatures, inside your app"}
        </h1>
        <p className="text-lg text-slate-600">
          Sign in with your e-signature account to see your customer account and send documents for signing — your
          credentials stay with the service.
        </p>
      </div>
      <div className="flex flex-wrap justify-center gap-3">
        {session ? (
          <Link href="/account" className={buttonClasses("primary", "lg")}>
            Go to your account
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
          <li key={feature.title} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
            <h2 className="font-semibold text-slate-900">{feature.title}</h2>
            <p className="mt-1 text-sm text-slate-600">{feature.body}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}

const features = [
  {
    title: "Sign in with the service",
    body: "OAuth 2.0 with PKCE. Your password never touches this app, and its tokens never reach your browser.",
  },
  {
    title: "Your account",
    body: "See the customer account and user details the e-signature service holds for you.",
  },
  {
    title: "Direct upload",
    body: "Files go straight from your browser to secure storage, with progress, cancel and an integrity check.",
  },
];
