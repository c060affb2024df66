import type { Metadata } from "next";
import { auth } from "@/auth";
import { SignInButton } from "@/components/sign-in-button";
import { Card, CardContent } from "@/components/ui/card";
import { AccountView } from "@/app/account/_components/account-view";
import { TokenPanel } from "@/app/account/_components/token-panel";

export const metadata: Metadata = { title: "Account" };

export default async function AccountPage() {
  const session = await auth();
  if (!session) {
    return (
      <Card className="mx-auto max-w-md">
        <CardContent className="flex flex-col items-start gap-4 py-6">
          <h1 className="text-xl font-semibold">Sign in to see your account</h1>
          <p className="text-sm text-slate-600">Your account details come from the e-signature service once you sign in.</p>
          <SignInButton callbackUrl="/account" />
        </CardContent>
      </Card>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Your account</h1>
        <p className="text-sm text-slate-600">Customer account and user details, as the e-signature service reports them.</p>
      </div>
      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        <AccountView />
        <TokenPanel tokenInfo={session.tokenInfo} />
      </div>
    </div>
  );
}
