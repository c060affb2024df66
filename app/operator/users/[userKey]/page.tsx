import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { notFound } from "next/navigation";
import { getTranslations } from "next-intl/server";
import { requireOperator } from "@/lib/operators/operator-access";
import { viewAsOperator } from "@/lib/operators/operator-view";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { CodeValue } from "@/components/ui/code-value";
import { LocalTime } from "@/components/local-time";
import { OperatorPageHeading } from "@/app/operator/_components/operator-nav";
import { DatabaseUnavailable } from "@/app/operator/_components/database-unavailable";
import { OperatorDocumentRows } from "@/app/operator/_components/document-rows";
import { operatorUserHref } from "@/app/operator/_components/links";
import { OPERATOR_PAGE_SIZE } from "@/app/operator/_lib/page-size";
import { EraseUserCard } from "@/app/operator/_components/erase-user-card";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("operator.user");
  return { title: t("metaTitle") };
}

type Props = {
  params: Promise<{ userKey: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** User keys are base64url hashes; anything else is not one (and is not looked up). */
const USER_KEY = /^[A-Za-z0-9_-]{1,100}$/;
const CURSOR = /^[A-Za-z0-9_-]{1,400}$/;

/**
 * One user as the app knows them (verified email, name, first and last seen) and their documents with status, newest
 * first, including those they removed from their own list (marked so). Opening it is recorded in the access log.
 */
export default async function OperatorUserPageView({ params, searchParams }: Props) {
  const operator = await requireOperator();
  const [{ userKey }, query, t] = await Promise.all([params, searchParams, getTranslations("operator.user")]);
  if (!USER_KEY.test(userKey)) notFound();
  const rawCursor = Array.isArray(query.cursor) ? query.cursor[0] : query.cursor;
  const cursor = rawCursor && CURSOR.test(rawCursor) ? rawCursor : undefined;
  const view = await viewAsOperator(operator, { action: "view_user", subjectUserKey: userKey }, (records) => records.getOperatorUser(userKey, { cursor, limit: OPERATOR_PAGE_SIZE }));
  if (view.unavailable) {
    return (
      <>
        <OperatorPageHeading title={t("title")} />
        <DatabaseUnavailable />
      </>
    );
  }
  const page = view.data;
  if (!page) notFound();
  const { user } = page;
  return (
    <>
      <OperatorPageHeading title={user?.email ?? t("unknownUser")} intro={user?.displayName ?? undefined} />
      <Card aria-labelledby="user-facts-title">
        <CardHeader>
          <CardTitle id="user-facts-title">{t("facts")}</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]" data-testid="operator-user-facts">
            <dt className="font-medium text-slate-600">{t("email")}</dt>
            <dd className="min-w-0 break-all text-slate-900" translate="no">{user?.email ?? t("notKnown")}</dd>
            <dt className="font-medium text-slate-600">{t("name")}</dt>
            <dd className="min-w-0 text-slate-900" translate="no">{user?.displayName ?? t("notKnown")}</dd>
            <dt className="font-medium text-slate-600">{t("firstSeen")}</dt>
            <dd className="text-slate-900">{user ? <LocalTime iso={user.firstSeenAt} style="absolute" /> : t("notKnown")}</dd>
            <dt className="font-medium text-slate-600">{t("lastSeen")}</dt>
            <dd className="text-slate-900">{user ? <LocalTime iso={user.lastSeenAt} style="absolute" /> : t("notKnown")}</dd>
            <dt className="font-medium text-slate-600">{t("userKey")}</dt>
            <dd className="min-w-0 text-xs leading-5 text-slate-900 sm:text-sm">
              <CodeValue value={page.userKey} />
            </dd>
          </dl>
        </CardContent>
      </Card>
      <Card aria-labelledby="user-documents-title">
        <CardHeader>
          <CardTitle id="user-documents-title">{t("documents")}</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {page.documents.length === 0 ? (
            <p className="text-sm text-slate-600">{cursor ? t("noOlder") : t("noDocuments")}</p>
          ) : (
            <OperatorDocumentRows documents={page.documents} showUser={false} label={t("documentsLabel")} />
          )}
          {cursor || page.nextCursor ? (
            <nav aria-label={t("pagesLabel")} className="flex justify-between gap-2">
              {cursor ? (
                <Link href={operatorUserHref(userKey)} className={buttonClasses("secondary", "sm")}>
                  {t("newest")}
                </Link>
              ) : (
                <span />
              )}
              {page.nextCursor ? (
                <Link href={`${operatorUserHref(userKey)}?cursor=${encodeURIComponent(page.nextCursor)}`} className={buttonClasses("secondary", "sm")} rel="next">
                  {t("older")}
                </Link>
              ) : null}
            </nav>
          ) : null}
        </CardContent>
      </Card>
      <EraseUserCard userKey={userKey} operator={operator} />
    </>
  );
}
