"use client";
import { useSession } from "next-auth/react";
import { Alert } from "@/components/ui/alert";
import { SignInAgainButton } from "@/components/sign-in-again-button";

/** Shown on every page once the session can no longer call the service (refresh refused, or no refresh token). */
export function SessionExpiredNotice() {
  const { data } = useSession();
  if (!data?.error) return null;
  return (
    <div className="mx-auto max-w-5xl px-4 pt-4">
      <Alert tone="warning" title="Your session has expired" action={<SignInAgainButton />}>
        For your security, sign in again to keep working. Nothing you entered on this page is lost.
      </Alert>
    </div>
  );
}
