import type { Metadata } from "next";
import { auth } from "@/auth";
import { SignInPrompt } from "@/components/sign-in-prompt";
import { AccountView } from "@/app/account/_components/account-view";
import { TokenPanel } from "@/app/account/_components/token-panel";
import { SessionsPanel } from "@/app/account/_components/sessions-panel";
import { fetchAccountForPage } from "@/lib/ssr/account-for-page";
import { fetchSessionsForPage } from "@/lib/ssr/sessions-for-page";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const session = await auth();
  if (!session) {
    return (
      <SignInPrompt
        title="Sign in to see your account"
        body="Your account details come from the e-signature service once you sign in."
        callbackUrl="/account"
      />
    );
  }
  const [account, sessions] = await Promise.all([fetchAccountForPage(), fetchSessionsForPage()]);
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Your account</h1>
        <p className="text-sm text-slate-600">Customer account and user details, as the e-signature service reports them.</p>
      </div>
      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        {/* Keyed by the user: another person signing in gets a new, empty query cache, never the last one's record. */}
        <AccountView key={session.user.email ?? session.user.name ?? ""} initial={account} />
        <TokenPanel tokenInfo={session.tokenInfo} />
      </div>
      <SessionsPanel initial={sessions} />
    </div>
  );
}
