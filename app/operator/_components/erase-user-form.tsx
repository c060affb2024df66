"use client";
import { useId, useRef, useState, type FormEvent } from "react";
import { useTranslations } from "next-intl";
import { ApiError, fetchJson } from "@/lib/api-client";
import { useErrorText } from "@/lib/i18n/error-text";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FieldError, Label } from "@/components/ui/input";

/** The same bounds as the route's (lib/erasure/erasure-input.ts), checked here first so the message is in the page's language. */
const REASON_MIN = 3;

type Erased = { documents: number; events: number; user: boolean };

/**
 * An operator erases the user on the page, after typing a reason: the reason is checked here, a confirmation says
 * what goes, then POST /api/operator/users/{userKey}/erasure erases the records and writes the access log's line.
 */
export function EraseUserForm({ userKey, reasonMax }: { userKey: string; reasonMax: number }) {
  const t = useTranslations("operator.erase");
  const errorText = useErrorText();
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Error | null>(null);
  const [erased, setErased] = useState<Erased | null>(null);
  const field = useRef<HTMLTextAreaElement>(null);
  const id = useId();

  function check(value: string): string {
    const trimmed = value.trim();
    if (trimmed.length < REASON_MIN) return t("reasonShort");
    if (trimmed.length > reasonMax) return t("reasonLong", { max: reasonMax });
    if (trimmed.includes("@")) return t("reasonEmail");
    return "";
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const message = check(reason);
    setReasonError(message);
    setProblem(null);
    if (message) return field.current?.focus();
    setConfirming(true);
  }

  async function erase() {
    setBusy(true);
    try {
      const answer = await fetchJson<{ erased: Erased }>(`/api/operator/users/${encodeURIComponent(userKey)}/erasure`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ reason: reason.trim() }),
      });
      setErased(answer.erased);
    } catch (error) {
      if (error instanceof ApiError && error.fields?.reason) setReasonError(check(reason) || errorText(error));
      else setProblem(error as Error);
    }
    setBusy(false);
    setConfirming(false);
  }

  if (erased) {
    return (
      <p role="status" className="text-sm text-emerald-800" data-testid="operator-erased">
        {t("done", { documents: erased.documents })}
      </p>
    );
  }
  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3">
      {problem ? (
        <Alert tone="error" title={t("failed")}>
          {errorText(problem)}
        </Alert>
      ) : null}
      <div className="flex flex-col gap-1">
        <Label htmlFor={`${id}-reason`}>{t("reasonLabel")}</Label>
        <p id={`${id}-hint`} className="text-sm text-slate-600">
          {t("reasonHint", { max: reasonMax })}
        </p>
        <textarea
          ref={field}
          id={`${id}-reason`}
          name="reason"
          rows={2}
          maxLength={reasonMax}
          required
          value={reason}
          onChange={(event) => {
            setReason(event.target.value);
            // A message shown stays until the reason is right, then goes at once.
            if (reasonError) setReasonError(check(event.target.value));
          }}
          aria-invalid={reasonError ? true : undefined}
          aria-describedby={reasonError ? `${id}-hint ${id}-error` : `${id}-hint`}
          className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm focus-visible:border-brand-600 aria-invalid:border-red-500"
        />
        <FieldError id={`${id}-error`}>{reasonError}</FieldError>
      </div>
      <div>
        <Button type="submit" variant="destructive" size="sm" disabled={busy}>
          {t("button")}
        </Button>
      </div>
      <ConfirmDialog open={confirming} busy={busy} title={t("confirmTitle")} confirmLabel={t("confirmLabel")} busyLabel={t("busyLabel")} onConfirm={() => void erase()} onDismiss={() => setConfirming(false)}>
        <p>{t("confirmBody")}</p>
      </ConfirmDialog>
    </form>
  );
}
