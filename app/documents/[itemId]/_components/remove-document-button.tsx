"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useErrorText } from "@/lib/i18n/error-text";
import { fetchJson } from "@/lib/api-client";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

/**
 * "Remove from this list", after a confirmation that says what it does: the app forgets the record (it leaves the
 * list); the document at the service is not deleted. Back to the list once done.
 */
export function RemoveDocumentButton({ itemId, name }: { itemId: string; name: string }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const t = useTranslations("document");
  const errorText = useErrorText();

  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await fetchJson(`/api/documents/${encodeURIComponent(itemId)}`, { method: "DELETE" });
      router.push("/documents");
      router.refresh();
    } catch (e) {
      setError(e instanceof Error ? errorText(e) : t("removeFailed"));
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="secondary" className="shrink-0 whitespace-nowrap" onClick={() => setOpen(true)}>
        {t("remove")}
      </Button>
      <ConfirmDialog
        open={open}
        title={t("removeTitle")}
        confirmLabel={t("remove")}
        busyLabel={t("removing")}
        busy={busy}
        onConfirm={() => void remove()}
        onDismiss={() => {
          setOpen(false);
          setError(null);
        }}
      >
        <p>
          {t.rich("removeBody", {
            name: name || t("thisDocument"),
            strong: (chunks) => <strong className="font-medium text-slate-900">{chunks}</strong>,
          })}
        </p>
        {error ? (
          <p role="alert" className="mt-2 text-red-700">
            {error}
          </p>
        ) : null}
      </ConfirmDialog>
    </>
  );
}
