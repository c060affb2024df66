"use client";
import { useState } from "react";
import { useTranslations } from "next-intl";
import { ApiError, fetchJson } from "@/lib/api-client";
import { ERASE_CONFIRMATION } from "@/lib/erasure/erase-confirmation";
import { useErrorText } from "@/lib/i18n/error-text";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

type ErasureAnswer = { erased: { documents: number; events: number; user: boolean }; sessionsEnded: number };

/** Where the browser goes once erased: the page that says what went, from the answer's counts (no personal data). */
export function erasedPageHref({ erased }: ErasureAnswer): string {
  const query = new URLSearchParams({ documents: String(erased.documents), events: String(erased.events), profile: erased.user ? "1" : "0" });
  return `/account/erased?${query.toString()}`;
}

/**
 * "Delete my records": a confirmation that says what goes (the document records and their histories, the email and
 * name, this browser's resumable uploads and waiting reports, every session) and what stays and why, offers the
 * export first, then asks POST /api/account/erasure, clears this browser's stores for the user, and goes to the
 * page that says what was erased. `documentCount` is null when the page could not count them (database down).
 */
export function EraseRecordsPanel({ userKey, documentCount }: { userKey: string; documentCount: number | null }) {
  const t = useTranslations("erasure");
  const errorText = useErrorText();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [resumable, setResumable] = useState<number | null>(null);
  const [problem, setProblem] = useState<Error | null>(null);

  async function openDialog() {
    setProblem(null);
    const { savedUploadStore } = await import("@/lib/upload/saved-upload-store");
    setResumable(await savedUploadStore.list(userKey).then((saved) => saved.length, () => null));
    setOpen(true);
  }

  async function erase() {
    setBusy(true);
    try {
      const answer = await fetchJson<ErasureAnswer>("/api/account/erasure", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ confirm: ERASE_CONFIRMATION }),
      });
      const { forgetBrowserRecords } = await import("@/lib/erasure/forget-browser-records");
      // The records are gone at the server whatever happens here; a store that cannot be opened keeps nothing to clear.
      await forgetBrowserRecords(userKey).catch(() => undefined);
      // A full load: the header must render signed out.
      window.location.assign(erasedPageHref(answer));
    } catch (error) {
      // The records went, but the session store did not answer: this browser's copies go now, the sessions at the retry.
      if (error instanceof ApiError && error.code === "SESSION_STORE_UNAVAILABLE") {
        const { forgetBrowserRecords } = await import("@/lib/erasure/forget-browser-records");
        await forgetBrowserRecords(userKey).catch(() => undefined);
      }
      setProblem(error as Error);
      setBusy(false);
      setOpen(false);
    }
  }

  return (
    <Card data-testid="erase-records-panel">
      <CardHeader>
        <CardTitle>{t("title")}</CardTitle>
        <CardDescription>{t("description")}</CardDescription>
      </CardHeader>
      <div className="flex flex-col gap-3 border-t border-slate-100 px-5 py-4">
        {problem ? (
          problem instanceof ApiError && problem.needsSignIn ? (
            <Alert tone="warning" title={t("failedTitle")}>
              {t("signedOut")}
            </Alert>
          ) : problem instanceof ApiError && problem.code === "SESSION_STORE_UNAVAILABLE" ? (
            <Alert tone="warning" title={t("sessionsPendingTitle")}>
              {t("sessionsPending")}
            </Alert>
          ) : (
            <Alert tone="error" title={t("failedTitle")}>
              {errorText(problem)}
            </Alert>
          )
        ) : null}
        <div>
          <Button variant="destructive" size="sm" onClick={() => void openDialog()} disabled={busy}>
            {t("button")}
          </Button>
        </div>
      </div>
      <ConfirmDialog open={open} busy={busy} title={t("confirmTitle")} confirmLabel={t("confirmLabel")} busyLabel={t("busyLabel")} onConfirm={() => void erase()} onDismiss={() => setOpen(false)}>
        <div className="flex flex-col gap-3" data-testid="erase-records-dialog">
          <p>
            {t.rich("exportFirst", {
              csv: (chunks) => (
                <a href="/api/documents/export?format=csv" download className="font-medium text-brand-700 underline underline-offset-2">
                  {chunks}
                </a>
              ),
              json: (chunks) => (
                <a href="/api/documents/export?format=json" download className="font-medium text-brand-700 underline underline-offset-2">
                  {chunks}
                </a>
              ),
            })}
          </p>
          <div>
            <h3 className="font-medium text-slate-900">{t("goesTitle")}</h3>
            <ul className="list-disc pl-5">
              <li>{documentCount === null ? t("goesDocumentsUnknown") : t("goesDocuments", { count: documentCount })}</li>
              <li>{t("goesProfile")}</li>
              <li>{t("goesResume", { count: resumable ?? 0 })}</li>
              <li>{t("goesSessions")}</li>
            </ul>
          </div>
          <div>
            <h3 className="font-medium text-slate-900">{t("staysTitle")}</h3>
            <ul className="list-disc pl-5">
              <li>{t("staysService")}</li>
              <li>{t("staysAccessLog")}</li>
              <li>{t("staysBackups")}</li>
            </ul>
          </div>
        </div>
      </ConfirmDialog>
    </Card>
  );
}
