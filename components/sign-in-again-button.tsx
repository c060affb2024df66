"use client";
import { signIn } from "next-auth/react";
import { usePathname } from "next/navigation";
import { Button } from "@/components/ui/button";

/** Restarts sign-in and comes back to the current page. */
export function SignInAgainButton() {
  const pathname = usePathname();
  return (
    <Button size="sm" onClick={() => void signIn("esign", { redirectTo: pathname })}>
      Sign in again
    </Button>
  );
}
