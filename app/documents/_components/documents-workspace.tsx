"use client";
import { useState, useSyncExternalStore } from "react";
import { requestDocumentCreation } from "@/lib/queries/documents";
import { uploadDocument } from "@/lib/upload/upload-document";
import { UploadQueue } from "@/lib/upload/upload-queue";
import { DocumentForm } from "@/app/documents/_components/document-form";
import { RecentDocuments } from "@/app/documents/_components/recent-documents";
import { UploadList } from "@/app/documents/_components/upload-list";
import { recordRecentDocument, useRecentDocuments } from "@/app/documents/_components/use-recent-documents";

type Props = {
  /** Storage origins the server allows uploads to (from ESIGN_STORAGE_ORIGINS). */
  allowedOrigins: string[];
  doctypeSuggestions: string[];
  /** Whose recent-documents list to show: the signed-in user's email. */
  userKey: string;
};

export function DocumentsWorkspace({ allowedOrigins, doctypeSuggestions, userKey }: Props) {
  const recent = useRecentDocuments(userKey);
  const [queue] = useState(
    () =>
      new UploadQueue(
        (file, input, onStage, signal) =>
          uploadDocument({ file, input, allowedOrigins, createDocument: requestDocumentCreation, onStage, signal }),
        // userKey is fixed for the page's life: another sign-in is a full navigation.
        (doc) => recordRecentDocument(userKey, doc),
      ),
  );
  const items = useSyncExternalStore(queue.subscribe, queue.getSnapshot, queue.getSnapshot);

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[1fr_20rem]">
      <div className="flex min-w-0 flex-col gap-6">
        <DocumentForm doctypeSuggestions={doctypeSuggestions} onSubmit={(entries) => queue.enqueue(entries)} />
        <UploadList
          items={items}
          onCancel={(id) => queue.cancel(id)}
          onRetry={(id) => queue.retry(id)}
          onDismiss={(id) => queue.dismiss(id)}
        />
      </div>
      <RecentDocuments documents={recent.documents} onClear={recent.clear} />
    </div>
  );
}
