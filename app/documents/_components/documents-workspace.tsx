"use client";
import { Alert } from "@/components/ui/alert";
import { DocumentForm } from "@/app/documents/_components/document-form";
import { RecentDocuments } from "@/app/documents/_components/recent-documents";
import { UploadList } from "@/app/documents/_components/upload-list";
import { recordRecentDocument, useRecentDocuments } from "@/app/documents/_components/use-recent-documents";
import { useUploadQueue } from "@/app/documents/_components/use-upload-queue";

type Props = {
  /** Storage origins the server allows uploads to (from ESIGN_STORAGE_ORIGINS). */
  allowedOrigins: string[];
  doctypeSuggestions: string[];
  /** Whose recent-documents list to show: the signed-in user's email. */
  userKey: string;
};

export function DocumentsWorkspace({ allowedOrigins, doctypeSuggestions, userKey }: Props) {
  const recent = useRecentDocuments(userKey);
  // userKey is fixed for the page's life: another sign-in is a full navigation.
  const uploads = useUploadQueue(allowedOrigins, (doc) => recordRecentDocument(userKey, doc));

  return (
    <div className="grid items-start gap-6 lg:grid-cols-[1fr_20rem]">
      <div className="flex min-w-0 flex-col gap-6">
        <DocumentForm doctypeSuggestions={doctypeSuggestions} onFilesChosen={uploads.prepare} onSubmit={uploads.enqueue} />
        {uploads.loadFailed ? (
          <Alert tone="error" title="The uploader could not be loaded">
            Check your connection, then choose the file again.
          </Alert>
        ) : null}
        <UploadList items={uploads.items} onCancel={uploads.cancel} onRetry={uploads.retry} onDismiss={uploads.dismiss} />
      </div>
      <RecentDocuments documents={recent.documents} onClear={recent.clear} />
    </div>
  );
}
