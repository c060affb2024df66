import type { Metadata } from "next";
import { NextIntlClientProvider } from "next-intl";
import { getTranslations } from "next-intl/server";
import { clientMessages } from "@/lib/i18n/client-messages";
import { auth } from "@/auth";
import { getConfig } from "@/lib/env";
import { readDocumentListParams } from "@/lib/documents/document-list-params";
import { SignInPrompt } from "@/components/sign-in-prompt";
import { DocumentList } from "@/app/documents/_components/document-list";
import { DocumentsWorkspace } from "@/app/documents/_components/documents-workspace";

/** What the upload workspace's client components read: the form, the queue, the facts of an uploaded document. */
const CLIENT_NAMESPACES = ["common", "errors", "documents", "upload", "uploadErrors"] as const;

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("documents");
  return { title: t("metaTitle") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function DocumentsPage({ searchParams }: Props) {
  const [session, t] = await Promise.all([auth(), getTranslations("documents")]);
  if (!session?.userKey) {
    return <SignInPrompt title={t("signInTitle")} body={t("signInBody")} callbackUrl="/documents" />;
  }
  const { storageOrigins, doctypeSuggestions, uploadBlocks } = getConfig();
  const params = readDocumentListParams(await searchParams);
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">{t("title")}</h1>
        <p className="text-sm text-slate-600">{t("intro")}</p>
      </div>
      <NextIntlClientProvider messages={await clientMessages(CLIENT_NAMESPACES)}>
        <DocumentsWorkspace
          allowedOrigins={storageOrigins}
          doctypeSuggestions={doctypeSuggestions}
          uploadBlocks={uploadBlocks}
          userKey={session.userKey}
        />
      </NextIntlClientProvider>
      <DocumentList userKey={session.userKey} params={params} doctypeSuggestions={doctypeSuggestions} />
    </div>
  );
}
