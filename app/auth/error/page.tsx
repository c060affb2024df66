import type { Metadata } from "next";
import Link from "next/link";
import { AuthErrorAlert } from "@/components/auth-error-alert";
import { SignInButton } from "@/components/sign-in-button";
import { buttonClasses } from "@/components/ui/button";
import { SupportContact } from "@/components/support-contact";
import { getConfig } from "@/lib/env";

export const metadata: Metadata = { title: "Sign-in problem" };

export default async function AuthErrorPage({ searchParams }: { searchParams: Promise<{ error?: string | string[] }> }) {
  const { error } = await searchParams;
  const code = (Array.isArray(error) ? error[0] : error) ?? "Default";
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-6 py-8">
      <h1 className="text-2xl font-bold text-slate-900">We could not sign you in</h1>
      <AuthErrorAlert code={code} />
      <div className="flex flex-wrap gap-3">
        <SignInButton label={code === "LinkExpired" ? "Sign in again" : "Try again"} />
        <Link href="/" className={buttonClasses("secondary")}>
          Back to the start page
        </Link>
      </div>
      <SupportContact support={getConfig().brand.support} />
    </div>
  );
}
