"use client";
import { useEffect, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { Alert } from "@/components/ui/alert";
import type { BlockSettings } from "@/lib/upload/resume-point";
import type { SavedUpload } from "@/lib/upload/saved-upload";
import { savedUploadStore } from "@/lib/upload/saved-upload-store";
import { DocumentForm } from "@/app/documents/_components/document-form";
import { InterruptedUploads, UploadList } from "@/app/documents/_components/lazy-upload-parts";
import { useDocumentRecordSync } from "@/app/documents/_components/use-document-record-sync";
import { useUploadQueue } from "@/app/documents/_components/use-upload-queue";

const UNFINISHED = new Set(["queued", "active", "paused"]);

/**
 * Brings a new upload's row (bar, percentage, speed, time left, Pause/Cancel) into view, scrolling only as far as
 * it takes (`block: "nearest"`), smoothly unless the user asks for less motion. Focus follows when the pressed button
 * took it with it (it is disabled once the files are queued), so a keyboard user lands on the row's own buttons.
 */
function revealUpload(row: HTMLElement) {
  const reduceMotion = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  row.scrollIntoView({ block: "nearest", behavior: reduceMotion ? "auto" : "smooth" });
  const focused = document.activeElement;
  if (!focused || focused === document.body || (focused instanceof HTMLButtonElement && focused.disabled)) row.focus({ preventScroll: true });
}

type Props = {
  /** Storage origins the server allows uploads to (from ESIGN_STORAGE_ORIGINS). */
  allowedOrigins: string[];
  doctypeSuggestions: string[];
  /** Whose saved uploads and undelivered reports these are: the session's userKey. */
  userKey: string;
  /** When and how to stage blocks (ESIGN_UPLOAD_BLOCK_*). */
  uploadBlocks: BlockSettings;
};

export function DocumentsWorkspace({ allowedOrigins, doctypeSuggestions, userKey, uploadBlocks }: Props) {
  const router = useRouter();
  const { deliverReports, reportAbandoned } = useDocumentRecordSync(userKey);
  // userKey is fixed for the page's life: another sign-in is a full navigation.
  const uploads = useUploadQueue({
    allowedOrigins,
    uploadBlocks,
    userKey,
    // The list below is rendered on the server: once this upload's reports are in (or could not be), show it anew.
    onUploaded: () => void deliverReports().finally(() => router.refresh()),
  });
  const [interrupted, setInterrupted] = useState<SavedUpload[]>([]);
  const t = useTranslations("upload");
  const listRef = useRef<HTMLDivElement>(null);
  // The ids listed when the form was submitted: the first row not among them is the one to bring into view.
  const listedAtSubmit = useRef<Set<string> | null>(null);
  const { items } = uploads;

  useEffect(() => {
    const before = listedAtSubmit.current;
    const added = before ? items.find((item) => !before.has(item.id)) : undefined;
    const list = listRef.current;
    if (!added || !list) return;
    const reveal = () => {
      const row = list.querySelector<HTMLElement>(`[data-upload-id="${CSS.escape(added.id)}"]`);
      if (!row) return false;
      listedAtSubmit.current = null;
      revealUpload(row);
      return true;
    };
    if (reveal()) return;
    // The rows' code loads with the first upload (lazy-upload-parts.tsx): the row appears a moment after the item.
    const observer = new MutationObserver(() => reveal() && observer.disconnect());
    observer.observe(list, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [items]);

  useEffect(() => {
    // No IndexedDB (some private modes): uploads still work, they just cannot resume after a reload.
    // Set only when there are some: an empty list would render the workspace again for nothing on every load.
    savedUploadStore.list(userKey).then((saved) => saved.length > 0 && setInterrupted(saved), () => undefined);
  }, [userKey]);

  const resumeSaved = async (saved: SavedUpload, file: File) => {
    if (!(await uploads.isSavedFile(file, saved))) return false;
    setInterrupted((current) => current.filter((s) => s.id !== saved.id));
    uploads.enqueue([
      saved.point
        ? { file, input: saved.input, resumeFrom: saved.point, id: saved.id }
        : { file, input: saved.input, id: saved.id, notice: "restarted", ...(saved.itemId ? { replacesItemId: saved.itemId } : {}) },
    ]);
    return true;
  };
  const discardSaved = (saved: SavedUpload) => {
    setInterrupted((current) => current.filter((s) => s.id !== saved.id));
    void savedUploadStore.remove(saved.id).catch(() => undefined);
    const itemId = saved.point?.created.itemId ?? saved.itemId;
    if (itemId) reportAbandoned(itemId);
  };

  return (
    <div className="flex min-w-0 flex-col gap-6">
      <InterruptedUploads uploads={interrupted} onResume={resumeSaved} onDiscard={discardSaved} />
      <DocumentForm
        doctypeSuggestions={doctypeSuggestions}
        uploading={items.some((item) => UNFINISHED.has(item.status))}
        onFilesChosen={uploads.prepare}
        onSubmit={(entries) => {
          listedAtSubmit.current = new Set(items.map((item) => item.id));
          uploads.enqueue(entries);
        }}
      />
      {uploads.loadFailed ? (
        <Alert tone="error" title={t("loaderFailedTitle")}>
          {t("loaderFailedBody")}
        </Alert>
      ) : null}
      <div ref={listRef} className="contents">
        <UploadList
          items={items}
          onCancel={uploads.cancel}
          onRetry={uploads.retry}
          onDismiss={uploads.dismiss}
          onPause={uploads.pause}
          onResume={uploads.resume}
        />
      </div>
    </div>
  );
}
