import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { getLocale, getTranslations } from "next-intl/server";
import { requireOperator } from "@/lib/operators/operator-access";
import { viewAsOperator } from "@/lib/operators/operator-view";
import type { OperatorDocumentPage } from "@/lib/operators/types";
import { documentIdSchema } from "@/lib/documents/document-record-input";
import { formatBytes } from "@/lib/upload/format";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { FactList, type Fact } from "@/components/ui/fact-list";
import { LocalTime } from "@/components/local-time";
import { StatusBadge } from "@/app/documents/_components/document-status";
import { AuditTrail } from "@/app/documents/[itemId]/_components/audit-trail";
import { OperatorPageHeading } from "@/app/operator/_components/operator-nav";
import { DatabaseUnavailable } from "@/app/operator/_components/database-unavailable";
import { operatorDocumentHref, operatorUserHref } from "@/app/operator/_components/links";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("operator.document");
  return { title: t("metaTitle") };
}

type Props = { params: Promise<{ userKey: string; itemId: string }> };

const USER_KEY = /^[A-Za-z0-9_-]{1,100}$/;

/**
 * One user's document as that user sees it on their own page — its facts and its whole history, in the same words —
 * plus what support needs beside it (whose it is, the user key, when each event reached the server). Nothing the user
 * could not see about their own document: the record holds no link, SAS or token to show. The visit is logged.
 */
export default async function OperatorDocumentView({ params }: Props) {
  const operator = await requireOperator();
  const [{ userKey, itemId }, t] = await Promise.all([params, getTranslations("operator.document")]);
  if (!USER_KEY.test(userKey) || !documentIdSchema.safeParse(itemId).success) notFound();
  const view = await viewAsOperator(operator, { action: "view_document", subjectUserKey: userKey, itemId }, (records) => records.getOperatorDocument(userKey, itemId));
  if (view.unavailable) {
    return (
      <>
        <OperatorPageHeading title={t("metaTitle")} />
        <DatabaseUnavailable />
      </>
    );
  }
  const found = view.data;
  if (!found) notFound();
  const { document, events, user } = found;
  const documents = await getTranslations("documents");
  return (
    <>
      <OperatorPageHeading title={document.name || documents("noName")} />
      <div className="-mt-4 flex flex-wrap items-center gap-2 text-sm text-slate-600">
        <StatusBadge status={document.status} />
        <span>{document.doctype || documents("noType")}</span>
        <span aria-hidden="true">·</span>
        <Link href={operatorUserHref(userKey)} className="break-all text-brand-700 underline underline-offset-2" translate="no" data-testid="operator-document-user">
          {user?.email ?? t("userWithoutEmail")}
        </Link>
      </div>
      <div className="grid items-start gap-6 lg:grid-cols-[1fr_1fr]">
        <Card aria-labelledby="facts-title">
          <CardHeader>
            <CardTitle id="facts-title">{t("facts")}</CardTitle>
          </CardHeader>
          <CardContent>
            <Facts found={found} />
          </CardContent>
        </Card>
        <Card aria-labelledby="trail-title">
          <CardHeader>
            <CardTitle id="trail-title">{t("history")}</CardTitle>
          </CardHeader>
          <CardContent>
            <AuditTrail events={events} documentHref={(newItemId) => operatorDocumentHref(userKey, newItemId)} />
          </CardContent>
        </Card>
      </div>
      <Card aria-labelledby="received-title">
        <CardHeader>
          <CardTitle id="received-title">{t("received")}</CardTitle>
        </CardHeader>
        <CardContent>
          <ReceivedTimes events={events} />
        </CardContent>
      </Card>
    </>
  );
}

/** The facts the user's own page lists, plus whose document it is and whether they removed it from their list. */
async function Facts({ found: { document, user } }: { found: OperatorDocumentPage }) {
  const [t, own, documents, locale] = await Promise.all([getTranslations("operator.document"), getTranslations("document"), getTranslations("documents"), getLocale()]);
  const rows: Fact[] = [
    ["User", t("user"), user?.email ?? t("userWithoutEmail"), false],
    ["User key", t("userKey"), document.userKey, true],
    ["Item ID", own("itemId"), document.itemId, true],
    ["File ID", own("fileId"), document.fileId, true],
    ["Sub-document", own("subdocument"), String(document.subdocid), true],
    ...(document.container ? [["Container", own("container"), document.container, true] satisfies Fact] : []),
    ["Type", own("type"), document.doctype || "—", false],
    ["Size", own("size"), document.size === null ? own("unknown") : documents("bytes", { size: formatBytes(document.size, locale), bytes: document.size }), false],
    ["MD5", own("md5"), document.md5 ?? own("notKnown"), Boolean(document.md5)],
    ["Created", own("created"), <LocalTime key="created" iso={document.createdAt} style="absolute" />, false],
    ["Last change", own("lastChange"), <LocalTime key="updated" iso={document.updatedAt} style="absolute" />, false],
    ...(document.removedAt
      ? [["Removed", t("removed"), <LocalTime key="removed" iso={document.removedAt} style="absolute" />, false] satisfies Fact]
      : []),
    ...(document.replacedByItemId
      ? [
          [
            "Replaced by",
            own("replacedBy"),
            <Link key="replaced" href={operatorDocumentHref(document.userKey, document.replacedByItemId)} className="block truncate font-mono text-brand-700 underline">
              {document.replacedByItemId}
            </Link>,
            true,
          ] satisfies Fact,
        ]
      : []),
  ];
  return <FactList facts={rows} testId="operator-document-facts" />;
}

/**
 * When each event happened (the reporter's clock) against when the server recorded it: a browser that was offline
 * reports late, and a clock that is off shows here. For support; the user's page shows only the first.
 */
async function ReceivedTimes({ events }: { events: OperatorDocumentPage["events"] }) {
  const [t, trail] = await Promise.all([getTranslations("operator.document"), getTranslations("auditTrail")]);
  if (events.length === 0) return <p className="text-sm text-slate-600">{trail("none")}</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="operator-received-times">
        <caption className="sr-only">{t("received")}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-slate-600">
            <th scope="col" className="py-1 pr-4 font-medium">{t("event")}</th>
            <th scope="col" className="py-1 pr-4 font-medium">{t("happened")}</th>
            <th scope="col" className="py-1 pr-4 font-medium">{t("recorded")}</th>
          </tr>
        </thead>
        <tbody>
          {events.map((event) => (
            <tr key={event.eventId} className="border-b border-slate-100 align-top">
              <th scope="row" className="py-1 pr-4 font-normal text-slate-900">{trail(event.type)}</th>
              <td className="py-1 pr-4 text-slate-700"><LocalTime iso={event.at} style="absolute" seconds /></td>
              <td className="py-1 pr-4 text-slate-700"><LocalTime iso={event.recordedAt} style="absolute" seconds /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
