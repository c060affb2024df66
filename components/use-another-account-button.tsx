"use client";
import { useRef, type FormEvent } from "react";
import { signInWithAnotherAccount } from "@/app/actions";
import { buttonClasses } from "@/components/ui/button";
import { useTranslations } from "next-intl";

/**
 * Sign-in that makes the service ask for credentials again, even while someone is signed in there.
 * Nobody is signed in to the app when it shows, so the upload links (SAS URLs) saved in this browser
 * for interrupted uploads cannot be told apart by owner: all of them are dropped first; each upload
 * can still start over with a new link once its owner signs in.
 */
export function UseAnotherAccountButton({ size = "md" }: { size?: "sm" | "md" | "lg" }) {
  const dropped = useRef(false);
  const t = useTranslations("signIn");
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    if (dropped.current) return;
    event.preventDefault();
    const form = event.currentTarget;
    const { savedUploadStore } = await import("@/lib/upload/saved-upload-store");
    await savedUploadStore.dropAllEndpoints().catch(() => undefined);
    dropped.current = true;
    form.requestSubmit();
  };
  return (
    <form action={signInWithAnotherAccount} onSubmit={onSubmit}>
      <button type="submit" className={buttonClasses("secondary", size)}>
        {t("anotherAccount")}
      </button>
    </form>
  );
}
