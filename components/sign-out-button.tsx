"use client";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { signOutOfApp } from "@/app/actions";
import { Button, buttonClasses } from "@/components/ui/button";
import { useTranslations } from "next-intl";

/**
 * Sign-out that first forgets this user's interrupted uploads, whose upload links (SAS URLs with write
 * permission) sit in this browser's IndexedDB. When there are any, a confirmation says they will be
 * forgotten. Without JavaScript the form signs out all the same (nothing could be forgotten then).
 */
export function SignOutButton({ userKey }: { userKey: string | null }) {
  const form = useRef<HTMLFormElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const cleared = useRef(false);
  const [interrupted, setInterrupted] = useState(0);
  const t = useTranslations("signOut");
  const common = useTranslations("common");

  // The dialog opens once its text (the count) is rendered, and its text is rendered only then: a plural message
  // builds the page's first Intl.PluralRules, which on every signed-in page's load cost tens of ms on a phone's CPU
  // in the middle of hydration (docs/page-weight.md). Closing it (Cancel, Escape) sets the count back to 0.
  useEffect(() => {
    if (interrupted > 0) dialog.current?.showModal();
  }, [interrupted]);

  const forgetAndSignOut = async () => {
    const { savedUploadStore } = await import("@/lib/upload/saved-upload-store");
    if (userKey) await savedUploadStore.forget(userKey);
    cleared.current = true;
    form.current?.requestSubmit();
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    // A session without a subject keeps nothing in this browser: nothing to forget.
    if (cleared.current || !userKey) return;
    event.preventDefault();
    const { savedUploadStore } = await import("@/lib/upload/saved-upload-store");
    const count = (await savedUploadStore.list(userKey)).length;
    if (count === 0) return forgetAndSignOut();
    setInterrupted(count);
  };

  return (
    <>
      <form ref={form} action={signOutOfApp} onSubmit={onSubmit}>
        <button type="submit" className={buttonClasses("secondary", "sm")}>
          {t("button")}
        </button>
      </form>
      <dialog
        ref={dialog}
        aria-labelledby="sign-out-title"
        aria-describedby="sign-out-body"
        onClose={() => setInterrupted(0)}
        className="m-auto max-w-md rounded-xl border border-slate-200 bg-white p-6 text-left shadow-xl backdrop:bg-slate-900/40"
      >
        <h2 id="sign-out-title" className="text-lg font-semibold text-slate-900">
          {interrupted > 0 ? t("title", { count: interrupted }) : null}
        </h2>
        <p id="sign-out-body" className="mt-2 text-sm text-slate-600">
          {interrupted > 0 ? t("body", { count: interrupted }) : null}
        </p>
        <div className="mt-5 flex justify-end gap-3">
          <Button variant="secondary" onClick={() => dialog.current?.close()} autoFocus>
            {common("cancel")}
          </Button>
          <Button variant="destructive" onClick={() => void forgetAndSignOut()}>
            {t("confirm")}
          </Button>
        </div>
      </dialog>
    </>
  );
}
