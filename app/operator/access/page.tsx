import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { getTranslations } from "next-intl/server";
import { useTranslations } from "next-intl";
import { requireOperator } from "@/lib/operators/operator-access";
import { viewAsOperator } from "@/lib/operators/operator-view";
import type { OperatorAccessEntry } from "@/lib/operators/types";
import { buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { CodeValue } from "@/components/ui/code-value";
import { LocalTime } from "@/components/local-time";
import { OperatorPageHeading } from "@/app/operator/_components/operator-nav";
import { DatabaseUnavailable } from "@/app/operator/_components/database-unavailable";
import { operatorDocumentHref, operatorUserHref } from "@/app/operator/_components/links";
import { OPERATOR_PAGE_SIZE } from "@/app/operator/_lib/page-size";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("operator.access");
  return { title: t("metaTitle") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * What operators opened, newest first: who, when, and whose records. Read-only: the log has no edit or delete, here or
 * anywhere. Reading it is itself logged.
 */
export default async function OperatorAccessPage({ searchParams }: Props) {
  const operator = await requireOperator();
  const [query, t] = await Promise.all([searchParams, getTranslations("operator.access")]);
  const rawBefore = Array.isArray(query.before) ? query.before[0] : query.before;
  const before = rawBefore && /^\d{1,15}$/.test(rawBefore) ? Number(rawBefore) : undefined;
  const view = await viewAsOperator(operator, { action: "view_access_log" }, (records) => records.listOperatorAccess({ before, limit: OPERATOR_PAGE_SIZE }));
  if (view.unavailable) {
    return (
      <>
        <OperatorPageHeading current="access" title={t("title")} intro={t("intro")} />
        <DatabaseUnavailable />
      </>
    );
  }
  const page = view.data;
  return (
    <>
      <OperatorPageHeading current="access" title={t("title")} intro={t("intro")} />
      <Card aria-labelledby="access-title">
        <CardHeader layout="row" className="flex-wrap items-start">
          <CardTitle id="access-title">{t("entries")}</CardTitle>
          <div role="group" className="flex items-center gap-1 text-sm" aria-label={t("exportLabel")}>
            <span className="text-slate-600">{t("export")}</span>
            <a href="/api/operator/access-log/export?format=csv" download className={buttonClasses("ghost", "sm")}>
              {t("csv")}
            </a>
            <a href="/api/operator/access-log/export?format=json" download className={buttonClasses("ghost", "sm")}>
              {t("json")}
            </a>
          </div>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {page.entries.length === 0 ? (
            <p className="text-sm text-slate-600">{t("none")}</p>
          ) : (
            <ul className="flex flex-col divide-y divide-slate-100" aria-label={t("listLabel")} data-testid="operator-access-log">
              {page.entries.map((entry) => (
                <AccessRow key={entry.id} entry={entry} />
              ))}
            </ul>
          )}
          {before || page.nextBefore ? (
            <nav aria-label={t("pagesLabel")} className="flex justify-between gap-2">
              {before ? (
                <Link href="/operator/access" className={buttonClasses("secondary", "sm")}>
                  {t("newest")}
                </Link>
              ) : (
                <span />
              )}
              {page.nextBefore ? (
                <Link href={`/operator/access?before=${page.nextBefore}`} className={buttonClasses("secondary", "sm")} rel="next">
                  {t("older")}
                </Link>
              ) : null}
            </nav>
          ) : null}
        </CardContent>
      </Card>
    </>
  );
}

function AccessRow({ entry }: { entry: OperatorAccessEntry }) {
  const t = useTranslations("operator.access");
  return (
    <li className="grid gap-1 py-3 first:pt-0 last:pb-0 sm:grid-cols-[12rem_minmax(0,1fr)] sm:gap-4" data-testid="operator-access-entry" data-action={entry.action} data-item-id={entry.itemId ?? ""}>
      <span className="text-xs text-slate-600 sm:text-sm">
        <LocalTime iso={entry.at} style="absolute" seconds />
      </span>
      <div className="flex min-w-0 flex-col gap-0.5 text-sm">
        <span className="text-slate-900">
          {t.rich("line", {
            operator: entry.operatorEmail,
            action: t(`actions.${entry.action}`),
            who: (chunks) => (
              <span className="font-medium" translate="no">
                {chunks}
              </span>
            ),
          })}
        </span>
        {entry.subjectUserKey ? (
          <span className="text-slate-700">
            {t("subject")}{" "}
            <Link href={operatorUserHref(entry.subjectUserKey)} className="break-all text-brand-700 underline underline-offset-2" translate="no">
              {entry.subjectEmail ?? entry.subjectUserKey}
            </Link>
            {entry.itemId ? (
              <>
                {" · "}
                <Link href={operatorDocumentHref(entry.subjectUserKey, entry.itemId)} className="text-brand-700 underline underline-offset-2">
                  {t("document")}
                </Link>
              </>
            ) : null}
          </span>
        ) : null}
        {entry.detail ? (
          <span className="flex min-w-0 gap-1 text-xs text-slate-600">
            <span className="shrink-0">{entry.action === "erase_user" ? t("reason") : t("detail")}</span>
            <CodeValue value={entry.detail} className="min-w-0" />
          </span>
        ) : null}
      </div>
    </li>
  );
}
