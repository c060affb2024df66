"use client";
import { useRef, useState, type FormEvent } from "react";
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
    dialog.current?.showModal();
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
        className="m-auto max-w-md rounded-xl border border-slate-200 bg-white p-6 text-left shadow-xl backdrop:bg-slate-900/40"
      >
        <h2 id="sign-out-title" className="text-lg font-semibold text-slate-900">
          {t("title", { count: interrupted })}
        </h2>
        <p id="sign-out-body" className="mt-2 text-sm text-slate-600">
          {t("body", { count: interrupted })}
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
