import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { getLocale, getTranslations } from "next-intl/server";
import { useTranslations } from "next-intl";
import { requireOperator } from "@/lib/operators/operator-access";
import { viewAsOperator } from "@/lib/operators/operator-view";
import type { StuckDocument, StuckPage } from "@/lib/operators/types";
import { getConfig } from "@/lib/env";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Label } from "@/components/ui/input";
import { LocalTime } from "@/components/local-time";
import { StatusBadge } from "@/app/documents/_components/document-status";
import { OperatorPageHeading } from "@/app/operator/_components/operator-nav";
import { DatabaseUnavailable } from "@/app/operator/_components/database-unavailable";
import { LastEventText } from "@/app/operator/_components/last-event";
import { DeviceText } from "@/app/operator/_components/device-text";
import { durationText } from "@/app/operator/_components/durations";
import { operatorDocumentHref, operatorUserHref } from "@/app/operator/_components/links";
import { OPERATOR_PAGE_SIZE } from "@/app/operator/_lib/page-size";
import { readStuckParams, stuckCursorParam, THRESHOLD_CHOICES, type StuckParams } from "@/app/operator/_lib/stuck-params";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("operator.stuck");
  return { title: t("metaTitle") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const selectClasses = "h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm shadow-sm focus-visible:border-brand-600";

/**
 * Documents that stopped on the way, across users: created and never uploaded, or an upload with no news for a while.
 * Oldest silence first, each with who, what, the last thing that happened (in words), on which device, and how long ago.
 */
export default async function OperatorStuckPage({ searchParams }: Props) {
  const signedIn = await requireOperator();
  const [query, t, operator] = await Promise.all([searchParams, getTranslations("operator.stuck"), getTranslations("operator")]);
  const { params, errors } = readStuckParams(query, getConfig().usesSandbox);
  const view =
    errors.length === 0
      ? await viewAsOperator(signedIn, { action: "view_stuck" }, (records) =>
          records.listStuckDocuments({
            now: params.now ?? new Date(),
            neverUploadedAfterMs: params.createdMinutes * 60_000,
            silentUploadAfterMs: params.silentMinutes * 60_000,
            limit: OPERATOR_PAGE_SIZE,
            after: params.after ?? undefined,
          }),
        )
      : null;
  const stuck: StuckPage | null = view && !view.unavailable ? view.data : null;
  return (
    <>
      <OperatorPageHeading current="stuck" title={t("title")} intro={t("intro")} />
      <ThresholdForm params={params} />
      {errors.length > 0 ? (
        <Alert tone="error" title={t("invalidTitle")} data-testid="operator-stuck-error">
          <ul>
            {errors.map(({ field }) => (
              <li key={field}>{t(`invalid.${field}`)}</li>
            ))}
          </ul>
        </Alert>
      ) : null}
      {view?.unavailable ? <DatabaseUnavailable /> : null}
      {stuck ? (
        <Card aria-labelledby="stuck-title">
          <CardHeader>
            <CardTitle id="stuck-title">{t("count", { count: stuck.total })}</CardTitle>
            <CardDescription>{t("listDescription", { created: thresholdText(params.createdMinutes, operator), silent: thresholdText(params.silentMinutes, operator) })}</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            {stuck.total === 0 ? (
              <p className="text-sm text-slate-600" data-testid="operator-stuck-empty">
                {t("none")}
              </p>
            ) : (
              <>
                {stuck.documents.length === 0 ? (
                  // A next link opened after the documents it led to were uploaded or removed.
                  <p className="text-sm text-slate-600">{t("pastEnd")}</p>
                ) : stuck.total > stuck.documents.length ? (
                  <p className="text-sm text-slate-600" data-testid="operator-stuck-range">
                    {t("range", { from: stuck.skipped + 1, to: stuck.skipped + stuck.documents.length, total: stuck.total })}
                  </p>
                ) : null}
                {stuck.documents.length > 0 ? <StuckList stuck={stuck.documents} /> : null}
              </>
            )}
            <StuckPages params={params} page={stuck} />
          </CardContent>
        </Card>
      ) : null}
    </>
  );
}

/** "First page" once past it, "next" while more follow; the thresholds (and the sandbox's time) go along. */
function StuckPages({ params, page }: { params: StuckParams; page: StuckPage }) {
  const t = useTranslations("operator.stuck");
  if (!params.after && !page.next) return null;
  const href = (after: StuckPage["next"]) => {
    const query = new URLSearchParams({ created: String(params.createdMinutes), silent: String(params.silentMinutes) });
    if (params.now) query.set("now", params.now.toISOString());
    if (after) query.set("after", stuckCursorParam(after));
    return `/operator/stuck?${query}`;
  };
  const following = Math.min(OPERATOR_PAGE_SIZE, page.total - page.skipped - page.documents.length);
  return (
    <nav aria-label={t("pagesLabel")} className="flex justify-between gap-2">
      {params.after ? (
        <Link href={href(null)} className={buttonClasses("secondary", "sm")}>
          {t("first")}
        </Link>
      ) : (
        <span />
      )}
      {page.next ? (
        <Link href={href(page.next)} className={buttonClasses("secondary", "sm")} rel="next">
          {t("next", { count: following })}
        </Link>
      ) : null}
    </nav>
  );
}

type OperatorTranslator = Awaited<ReturnType<typeof getTranslations<"operator">>>;

/** A threshold in words: whole hours as hours (`4 hours` / `4 時間`), else minutes. */
const thresholdText = (minutes: number, t: OperatorTranslator) => (minutes % 60 === 0 ? t("hours", { hours: minutes / 60 }) : t("minutes", { minutes }));

/** Two thresholds as selects in a GET form: every view has its own URL, and it works without JavaScript. */
function ThresholdForm({ params }: { params: StuckParams }) {
  const t = useTranslations("operator.stuck");
  const operator = useTranslations("operator");
  const options = (current: number) => [...new Set([...THRESHOLD_CHOICES, current])].sort((a, b) => a - b);
  const minutesText = (m: number) => thresholdText(m, operator);
  return (
    <form method="get" action="/operator/stuck" aria-label={t("thresholdsLabel")} className="grid grid-cols-1 items-end gap-3 sm:grid-cols-[1fr_1fr_auto]">
      {params.now ? <input type="hidden" name="now" value={params.now.toISOString()} /> : null}
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="stuck-created">{t("createdThreshold")}</Label>
        <select id="stuck-created" name="created" defaultValue={params.createdMinutes} className={selectClasses}>
          {options(params.createdMinutes).map((m) => (
            <option key={m} value={m}>
              {minutesText(m)}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor="stuck-silent">{t("silentThreshold")}</Label>
        <select id="stuck-silent" name="silent" defaultValue={params.silentMinutes} className={selectClasses}>
          {options(params.silentMinutes).map((m) => (
            <option key={m} value={m}>
              {minutesText(m)}
            </option>
          ))}
        </select>
      </div>
      <Button type="submit" variant="secondary">
        {t("apply")}
      </Button>
    </form>
  );
}

async function StuckList({ stuck }: { stuck: StuckDocument[] }) {
  const [t, operator, documents, locale] = await Promise.all([
    getTranslations("operator.stuck"),
    getTranslations("operator"),
    getTranslations("documents"),
    getLocale(),
  ]);
  return (
    <ul className="flex flex-col divide-y divide-slate-100" aria-label={t("listLabel")} data-testid="operator-stuck-list">
      {stuck.map((doc) => (
        <li key={`${doc.userKey}/${doc.itemId}`} className="grid gap-2 py-3 first:pt-0 last:pb-0 sm:grid-cols-[minmax(0,2fr)_minmax(0,2fr)_minmax(0,1.3fr)_11rem] sm:gap-4" data-testid="operator-stuck-row" data-item-id={doc.itemId} data-kind={doc.kind}>
          <div className="flex min-w-0 flex-col gap-0.5">
            <Link href={operatorDocumentHref(doc.userKey, doc.itemId)} className="break-words font-medium text-brand-700 underline-offset-2 hover:underline" translate={doc.name ? "no" : undefined}>
              {doc.name || documents("noName")}
            </Link>
            <Link href={operatorUserHref(doc.userKey)} className="break-all text-sm text-slate-700 underline underline-offset-2 hover:text-slate-900" translate="no" data-testid="operator-stuck-user">
              {doc.email ?? operator("noEmail")}
            </Link>
            {doc.displayName ? (
              <span className="text-xs text-slate-600" translate="no">
                {doc.displayName}
              </span>
            ) : null}
          </div>
          <div className="flex min-w-0 flex-col gap-1 text-sm">
            <span className="text-xs text-slate-600">{t("lastEvent")}</span>
            <span className="text-slate-900" data-testid="operator-stuck-last-event">
              <LastEventText type={doc.lastEvent.type} errorCode={doc.lastEvent.errorCode} />
            </span>
            <span className="text-xs text-slate-600">
              <LocalTime iso={doc.lastEvent.at} style="absolute" />
            </span>
          </div>
          <div className="flex min-w-0 flex-col gap-1 text-sm">
            <span className="text-xs text-slate-600">{t("device")}</span>
            <span className="text-slate-700" data-testid="operator-stuck-device">
              <DeviceText device={doc.lastEvent.device} />
            </span>
          </div>
          <div className="flex flex-row flex-wrap items-center gap-2 sm:flex-col sm:items-end">
            <StatusBadge status={doc.status} />
            <span className="text-sm font-medium text-slate-900" data-testid="operator-stuck-age">
              {t(doc.kind === "never_uploaded" ? "ageCreated" : "ageSilent", { age: durationText(doc.ageMs, locale, operator) })}
            </span>
          </div>
        </li>
      ))}
    </ul>
  );
}
