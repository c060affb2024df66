import { signInWithEsign } from "@/app/actions";
import { buttonClasses } from "@/components/ui/button";

export function SignInButton({ callbackUrl, label = "Sign in with eSign", size = "md" }: { callbackUrl?: string; label?: string; size?: "sm" | "md" | "lg" }) {
  return (
    <form action={signInWithEsign}>
      {callbackUrl ? <input type="hidden" name="callbackUrl" value={callbackUrl} /> : null}
      <button type="submit" className={buttonClasses("primary", size)}>
        {label}
      </button>
    </form>
  );
}
