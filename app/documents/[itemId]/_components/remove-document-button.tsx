"use client";
import { useState } from "react";
import { useRouter } from "next/navigation";
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

  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await fetchJson(`/api/documents/${encodeURIComponent(itemId)}`, { method: "DELETE" });
      router.push("/documents");
      router.refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : "The document could not be removed. Please try again.");
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="secondary" className="shrink-0 whitespace-nowrap" onClick={() => setOpen(true)}>
        Remove from this list
      </Button>
      <ConfirmDialog
        open={open}
        title="Remove from this list?"
        confirmLabel="Remove from this list"
        busyLabel="Removing…"
        busy={busy}
        onConfirm={() => void remove()}
        onDismiss={() => {
          setOpen(false);
          setError(null);
        }}
      >
        <p>
          <strong className="font-medium text-slate-900">{name || "This document"}</strong> leaves your list in this app, on
          every device. The document itself stays in your e-signature account: nothing is deleted at the service.
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
