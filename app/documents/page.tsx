import type { Metadata } from "next";
import { auth } from "@/auth";
import { getConfig } from "@/lib/env";
import { readDocumentListParams } from "@/lib/documents/document-list-params";
import { SignInPrompt } from "@/components/sign-in-prompt";
import { DocumentList } from "@/app/documents/_components/document-list";
import { DocumentsWorkspace } from "@/app/documents/_components/documents-workspace";

export const metadata: Metadata = { title: "Documents" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function DocumentsPage({ searchParams }: Props) {
  const session = await auth();
  if (!session?.userKey) {
    return (
      <SignInPrompt
        title="Sign in to upload documents"
        body="Documents are created in your e-signature account, so sign in first."
        callbackUrl="/documents"
      />
    );
  }
  const { storageOrigins, doctypeSuggestions, uploadBlocks } = getConfig();
  const params = readDocumentListParams(await searchParams);
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Documents</h1>
        <p className="text-sm text-slate-600">
          Create a document and upload its file straight to the service&apos;s storage — it does not pass through this app.
        </p>
      </div>
      <DocumentsWorkspace
        allowedOrigins={storageOrigins}
        doctypeSuggestions={doctypeSuggestions}
        uploadBlocks={uploadBlocks}
        userKey={session.userKey}
      />
      <DocumentList userKey={session.userKey} params={params} doctypeSuggestions={doctypeSuggestions} />
    </div>
  );
}
