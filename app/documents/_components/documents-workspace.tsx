"use client";
import { useEffect, useState, useSyncExternalStore } from "react";
import { requestDocumentCreation } from "@/lib/queries/documents";
import type { BlockSettings } from "@/lib/upload/resume-point";
import { hashBlockMd5 } from "@/lib/upload/put-block";
import { createResumeSaver } from "@/lib/upload/resume-saver";
import { isSameFile, type SavedUpload } from "@/lib/upload/saved-upload";
import { savedUploadStore } from "@/lib/upload/saved-upload-store";
import { uploadDocument } from "@/lib/upload/upload-document";
import { UploadQueue } from "@/lib/upload/upload-queue";
import { DocumentForm } from "@/app/documents/_components/document-form";
import { InterruptedUploads } from "@/app/documents/_components/interrupted-uploads";
import { RecentDocuments } from "@/app/documents/_components/recent-documents";
import { UploadList } from "@/app/documents/_components/upload-list";
import { recordRecentDocument, useRecentDocuments } from "@/app/documents/_components/use-recent-documents";

type Props = {
  /** Storage origins the server allows uploads to (from ESIGN_STORAGE_ORIGINS). */
  allowedOrigins: string[];
  doctypeSuggestions: string[];
  /** Whose recent-documents list to show: the signed-in user's email. */
  userKey: string;
  /** When and how to stage blocks (ESIGN_UPLOAD_BLOCK_*). */
  uploadBlocks: BlockSettings;
};

export function DocumentsWorkspace({ allowedOrigins, doctypeSuggestions, userKey, uploadBlocks }: Props) {
  const recent = useRecentDocuments(userKey);
  const [interrupted, setInterrupted] = useState<SavedUpload[]>([]);
  const [queue] = useState(() => {
    // Origins that refused blocks: remembered for this page's lifetime, so later files go straight to one PUT.
    const blockRefusals = new Set<string>();
    return new UploadQueue(
      (file, input, onStage, signal, resume) =>
        uploadDocument({
          file,
          input,
          allowedOrigins,
          createDocument: requestDocumentCreation,
          onStage,
          signal,
          blocks: uploadBlocks,
          blockRefusals,
          resumeFrom: resume.from ?? undefined,
          onResumePoint: resume.onPoint,
        }),
      // userKey is fixed for the page's life: another sign-in is a full navigation.
      (doc) => recordRecentDocument(userKey, doc),
      undefined,
      createResumeSaver(userKey, savedUploadStore),
    );
  });
  const items = useSyncExternalStore(queue.subscribe, queue.getSnapshot, queue.getSnapshot);

  useEffect(() => {
    // No IndexedDB (some private modes): uploads still work, they just cannot resume after a reload.
    savedUploadStore.list(userKey).then(setInterrupted, () => undefined);
  }, [userKey]);

  const resumeSaved = async (saved: SavedUpload, file: File) => {
    if (!(await isSameFile(file, saved, hashBlockMd5))) return false;
    setInterrupted((current) => current.filter((s) => s.id !== saved.id));
    queue.enqueue([
      saved.point
        ? { file, input: saved.input, resumeFrom: saved.point, id: saved.id }
        : { file, input: saved.input, id: saved.id, notice: "restarted" },
    ]);
    return true;
  };
  const discardSaved = (saved: SavedUpload) => {
    setInterrupted((current) => current.filter((s) => s.id !== saved.id));
    void savedUploadStore.remove(saved.id).catch(() => undefined);
  };

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[1fr_20rem]">
      <div className="flex min-w-0 flex-col gap-6">
        <InterruptedUploads uploads={interrupted} onResume={resumeSaved} onDiscard={discardSaved} />
        <DocumentForm doctypeSuggestions={doctypeSuggestions} onSubmit={(entries) => queue.enqueue(entries)} />
        <UploadList
          items={items}
          onCancel={(id) => queue.cancel(id)}
          onRetry={(id) => queue.retry(id)}
          onDismiss={(id) => queue.dismiss(id)}
          onPause={(id) => queue.pause(id)}
          onResume={(id) => queue.resume(id)}
        />
      </div>
      <RecentDocuments documents={recent.documents} onClear={recent.clear} />
    </div>
  );
}
