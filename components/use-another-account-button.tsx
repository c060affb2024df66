import { signInWithAnotherAccount } from "@/app/actions";
import { buttonClasses } from "@/components/ui/button";

/** Sign-in that makes the service ask for credentials again, even while someone is signed in there. */
export function UseAnotherAccountButton({ size = "md" }: { size?: "sm" | "md" | "lg" }) {
  return (
    <form action={signInWithAnotherAccount}>
      <button type="submit" className={buttonClasses("secondary", size)}>
        Use another account
      </button>
    </form>
  );
}
