import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { NextIntlClientProvider, useLocale, useTranslations } from "next-intl";
import { getTranslations } from "next-intl/server";
import { clientMessages } from "@/lib/i18n/client-messages";
import { auth } from "@/auth";
import { isDatabaseUnavailable } from "@/lib/db/database-errors";
import { documentIdSchema } from "@/lib/documents/document-record-input";
import { getDocument, type DocumentRecord } from "@/lib/documents/document-records";
import { formatBytes } from "@/lib/upload/format";
import { Alert } from "@/components/ui/alert";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { FactList, type Fact } from "@/components/ui/fact-list";
import { LocalTime } from "@/components/local-time";
import { StatusBadge } from "@/app/documents/_components/document-status";
import { AuditTrail } from "@/app/documents/[itemId]/_components/audit-trail";
import { RemoveDocumentButton } from "@/app/documents/[itemId]/_components/remove-document-button";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("document");
  return { title: t("metaTitle") };
}

type Props = { params: Promise<{ itemId: string }> };

/**
 * One of the user's documents: its facts and audit trail. Anyone else — another user, a signed-out visitor, an id
 * that is not a document id — gets the 404 page, the same as for a document that never existed, so the answer says
 * nothing about other people's documents.
 */
export default async function DocumentPage({ params }: Props) {
  const [session, { itemId }, t, documents] = await Promise.all([auth(), params, getTranslations("document"), getTranslations("documents")]);
  if (!session?.userKey || !documentIdSchema.safeParse(itemId).success) notFound();
  let found: Awaited<ReturnType<typeof getDocument>>;
  try {
    found = await getDocument(session.userKey, itemId);
  } catch (error) {
    if (!isDatabaseUnavailable(error)) throw error;
    return (
      <div className="flex flex-col gap-6">
        <BackLink />
        <Alert tone="warning" title={t("unavailableTitle")} data-testid="documents-unavailable">
          {t("unavailableBody")}
        </Alert>
      </div>
    );
  }
  if (!found) notFound();
  const { document, events } = found;
  return (
    <div className="flex flex-col gap-6">
      <BackLink />
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 flex-col gap-1">
          <h1 className="break-words text-2xl font-bold tracking-tight" translate={document.name ? "no" : undefined}>
            {document.name || documents("noName")}
          </h1>
          <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <StatusBadge status={document.status} />
            <span>{document.doctype || documents("noType")}</span>
          </div>
        </div>
        <NextIntlClientProvider messages={await clientMessages(["common", "errors", "document"])}>
          <RemoveDocumentButton itemId={document.itemId} name={document.name} />
        </NextIntlClientProvider>
      </div>
      <div className="grid items-start gap-6 lg:grid-cols-[1fr_1fr]">
        <Card aria-labelledby="facts-title">
          <CardHeader>
            <CardTitle id="facts-title">{t("facts")}</CardTitle>
          </CardHeader>
          <CardContent>
            <DocumentRecordFacts document={document} />
          </CardContent>
        </Card>
        <Card aria-labelledby="trail-title">
          <CardHeader>
            <CardTitle id="trail-title">{t("history")}</CardTitle>
          </CardHeader>
          <CardContent>
            <AuditTrail events={events} />
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

function BackLink() {
  const t = useTranslations("document");
  return (
    <Link href="/documents" className="self-start text-sm font-medium text-brand-700 underline-offset-2 hover:underline">
      {t("back")}
    </Link>
  );
}

/** The record's facts as a description list; ids and the MD5 in monospace on one line, selectable for copying. */
function DocumentRecordFacts({ document }: { document: DocumentRecord }) {
  const t = useTranslations("document");
  const documents = useTranslations("documents");
  const locale = useLocale();
  const rows: Fact[] = [
    ["Item ID", t("itemId"), document.itemId, true],
    ["File ID", t("fileId"), document.fileId, true],
    ["Sub-document", t("subdocument"), String(document.subdocid), true],
    ...(document.container ? [["Container", t("container"), document.container, true] satisfies Fact] : []),
    ["Type", t("type"), document.doctype || "—", false],
    [
      "Size",
      t("size"),
      document.size === null ? t("unknown") : documents("bytes", { size: formatBytes(document.size, locale), bytes: document.size }),
      false,
    ],
    ["MD5", t("md5"), document.md5 ?? t("notKnown"), Boolean(document.md5)],
    ["Created", t("created"), <LocalTime key="created" iso={document.createdAt} style="absolute" />, false],
    ["Last change", t("lastChange"), <LocalTime key="updated" iso={document.updatedAt} style="absolute" />, false],
    ...(document.replacedByItemId
      ? [
          [
            "Replaced by",
            t("replacedBy"),
            <Link key="replaced" href={`/documents/${encodeURIComponent(document.replacedByItemId)}`} className="block truncate font-mono text-brand-700 underline">
              {document.replacedByItemId}
            </Link>,
            true,
          ] satisfies Fact,
        ]
      : []),
  ];
  return <FactList facts={rows} testId="document-record-facts" />;
}
