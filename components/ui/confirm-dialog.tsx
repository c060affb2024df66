"use client";
import { useEffect, useId, useRef, type ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useTranslations } from "next-intl";

type ConfirmDialogProps = {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** Shown on the confirm button while the action runs; both buttons are disabled meanwhile. */
  busyLabel: string;
  busy: boolean;
  onConfirm: () => void;
  /** Cancel, Escape, or the dialog closing for any other reason. */
  onDismiss: () => void;
};

/**
 * A modal confirmation for a destructive action, on the native <dialog>: focus stays inside while it is open,
 * Escape dismisses it, and focus starts on Cancel, so a stray Enter does not confirm.
 */
export function ConfirmDialog({ open, title, children, confirmLabel, busyLabel, busy, onConfirm, onDismiss }: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();
  const t = useTranslations("common");

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      cancel.current?.focus();
    } else if (!open && element.open) {
      element.close();
    }
  }, [open]);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      // Escape would close it mid-action; the answer is on its way, so it stays until then.
      onCancel={(event) => busy && event.preventDefault()}
      onClose={() => open && onDismiss()}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-xl border border-slate-200 bg-white p-0 text-slate-900 shadow-lg backdrop:bg-slate-900/40"
    >
      <div className="flex flex-col gap-3 px-5 py-5">
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        <div id={bodyId} className="text-sm text-slate-600">
          {children}
        </div>
      </div>
      <div className="flex flex-col-reverse gap-2 border-t border-slate-100 px-5 py-4 sm:flex-row sm:justify-end">
        <Button ref={cancel} variant="secondary" onClick={onDismiss} disabled={busy}>
          {t("cancel")}
        </Button>
        <Button variant="destructive" onClick={onConfirm} disabled={busy}>
          {busy ? <Spinner label={busyLabel} /> : null}
          {confirmLabel}
        </Button>
      </div>
    </dialog>
  );
}
