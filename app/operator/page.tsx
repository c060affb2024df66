import type { Metadata } from "next";
import { Link } from "@/components/ui/link";
import { getTimeZone, getTranslations } from "next-intl/server";
import { useLocale, useTranslations } from "next-intl";
import { requireOperator } from "@/lib/operators/operator-access";
import { viewAsOperator } from "@/lib/operators/operator-view";
import type { OperatorOverview } from "@/lib/operators/types";
import { useErrorReason } from "@/lib/i18n/error-reason";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CodeValue } from "@/components/ui/code-value";
import { FieldError, Input, Label } from "@/components/ui/input";
import { OperatorPageHeading } from "@/app/operator/_components/operator-nav";
import { DayChart } from "@/app/operator/_components/day-chart";
import { DatabaseUnavailable } from "@/app/operator/_components/database-unavailable";
import { BackupStatusLine } from "@/app/operator/_components/backup-status-line";
import { durationText } from "@/app/operator/_components/durations";
import { FIRST_YEAR, LAST_YEAR } from "@/lib/calendar-days";
import { resolvePeriod, type PeriodFieldError, type PeriodParams } from "@/app/operator/_lib/period";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("operator.overview");
  return { title: t("metaTitle") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const PRESETS = ["today", "7d", "30d"] as const;
const PERIOD_FIELDS = ["from", "to"] as const;

/**
 * What happened to every user's documents in a period, in the operator's time zone (the `tz` cookie the browser sets,
 * as for every date in the app; UTC until it has). The period is in the URL, so a view can be shared and reloaded.
 */
export default async function OperatorOverviewPage({ searchParams }: Props) {
  const operator = await requireOperator();
  const [query, timeZone, t] = await Promise.all([searchParams, getTimeZone(), getTranslations("operator.overview")]);
  const resolved = resolvePeriod(query, timeZone, new Date());
  const view = resolved.ok
    ? await viewAsOperator(operator, { action: "view_overview", detail: `${resolved.firstDay}..${resolved.lastDay} ${timeZone}` }, (records) => records.getOperatorOverview(resolved.period))
    : null;
  const overview: OperatorOverview | null = view && !view.unavailable ? view.data : null;
  return (
    <>
      <OperatorPageHeading current="overview" title={t("title")} intro={t("intro", { timeZone })} />
      <BackupStatusLine />
      <PeriodPicker params={resolved.params} error={resolved.ok ? null : resolved.error} />
      {view?.unavailable ? <DatabaseUnavailable /> : null}
      {overview && resolved.ok ? (
        <>
          <Figures overview={overview} />
          {/* minmax(0, …): the chart scrolls inside its card rather than widening the page on a phone. */}
          <div className="grid grid-cols-[minmax(0,1fr)] items-start gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
            <Card aria-labelledby="per-day-title">
              <CardHeader>
                <CardTitle id="per-day-title">{t("perDay")}</CardTitle>
                <CardDescription>{t("perDayDescription")}</CardDescription>
              </CardHeader>
              <CardContent>
                <DayChart days={overview.days} />
              </CardContent>
            </Card>
            <Failures failures={overview.failuresByCode} />
          </div>
          <Exports params={resolved.params} />
        </>
      ) : null}
    </>
  );
}

/**
 * The three presets and "Custom period" as links; the custom range as a plain GET form (works without JavaScript;
 * what was typed stays). The form is there once a custom period is chosen (or a bad one named): a date field is the
 * costliest element a page can hold in Chromium (the first one ~7 ms more renderer CPU than a text field on the
 * bench's machine, docs/page-weight.md), and most visits use a preset.
 */
function PeriodPicker({ params, error }: { params: PeriodParams; error: PeriodFieldError | null }) {
  const t = useTranslations("operator.overview");
  // The years as text: a number argument would be written with a thousands separator (1,970).
  const problem = (error: PeriodFieldError) => t(`periodErrors.${error.problem}`, { first: String(FIRST_YEAR), last: String(LAST_YEAR) });
  const fieldError = (field: "from" | "to") => (error?.field === field ? problem(error) : undefined);
  const current = (choice: PeriodParams["choice"]) => !error && params.choice === choice;
  // A custom period starts from the days on show (a preset fills them in).
  const customHref = `/operator?${new URLSearchParams({ range: "custom", from: params.from, to: params.to })}`;
  return (
    <div className="flex flex-col gap-3" data-testid="operator-period">
      <nav aria-label={t("periodLabel")} className="flex flex-wrap gap-2">
        {PRESETS.map((preset) => (
          <Link
            key={preset}
            href={`/operator?range=${preset}`}
            aria-current={current(preset) ? "page" : undefined}
            className={buttonClasses(current(preset) ? "primary" : "secondary", "sm")}
          >
            {t(`presets.${preset}`)}
          </Link>
        ))}
        <Link
          href={customHref}
          aria-current={current("custom") ? "page" : undefined}
          className={buttonClasses(current("custom") ? "primary" : "secondary", "sm")}
        >
          {t("customLabel")}
        </Link>
      </nav>
      {params.choice === "custom" || error ? <CustomPeriodForm params={params} fieldError={fieldError} /> : null}
      {error ? (
        <Alert tone="error" title={t("periodInvalid")} data-testid="operator-period-error">
          {error.field === "range" ? t("periodErrors.unknown") : t("periodFieldNamed", { field: t(error.field), problem: problem(error) })}
        </Alert>
      ) : null}
    </div>
  );
}

function CustomPeriodForm({ params, fieldError }: { params: PeriodParams; fieldError: (field: "from" | "to") => string | undefined }) {
  const t = useTranslations("operator.overview");
  return (
    <form method="get" action="/operator" aria-label={t("customLabel")} className="grid grid-cols-2 items-start gap-3 sm:grid-cols-[12rem_12rem_auto]">
      <input type="hidden" name="range" value="custom" />
      {PERIOD_FIELDS.map((field) => (
        <div key={field} className="flex flex-col gap-1.5">
          <Label htmlFor={`period-${field}`}>{t(field)}</Label>
          <Input
            id={`period-${field}`}
            name={field}
            type="date"
            required
            defaultValue={params[field]}
            aria-invalid={fieldError(field) ? true : undefined}
            aria-describedby={fieldError(field) ? `period-${field}-error` : undefined}
          />
          <FieldError id={`period-${field}-error`}>{fieldError(field)}</FieldError>
        </div>
      ))}
      <div className="col-span-2 sm:col-span-1 sm:pt-6">
        <Button type="submit" variant="secondary">
          {t("show")}
        </Button>
      </div>
    </form>
  );
}

function Figures({ overview }: { overview: OperatorOverview }) {
  const t = useTranslations("operator.overview");
  const operator = useTranslations("operator");
  const format = (n: number) => operator("count", { count: n });
  const locale = useLocale();
  const duration = (ms: number | null) => (ms === null ? t("none") : durationText(ms, locale, operator));
  // [data-figure (stable for tests), label, value]
  const figures: [string, string, string][] = [
    ["created", t("created"), format(overview.created)],
    ["uploaded", t("uploaded"), format(overview.uploaded)],
    ["failed", t("failed"), format(overview.failed)],
    ["cancelled", t("cancelled"), format(overview.cancelled)],
    ["replaced", t("replaced"), format(overview.replaced)],
    ["pending", t("pending"), format(overview.pending)],
    ["completionRate", t("completionRate"), overview.completionRate === null ? t("none") : t("percent", { rate: overview.completionRate })],
    ["median", t("median"), duration(overview.creationToUploadMs.median)],
    ["p95", t("p95"), duration(overview.creationToUploadMs.p95)],
    ["activeUsers", t("activeUsers"), format(overview.activeUsers)],
  ];
  return (
    <section aria-labelledby="figures-title">
      <h2 id="figures-title" className="sr-only">{t("figures")}</h2>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" data-testid="operator-figures">
        {figures.map(([key, label, value]) => (
          <div key={key} className="flex flex-col gap-1 rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-sm" data-figure={key}>
            <dt className="text-sm text-slate-600">{label}</dt>
            <dd className="text-xl font-semibold tabular-nums text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Failures({ failures }: { failures: OperatorOverview["failuresByCode"] }) {
  const t = useTranslations("operator.overview");
  const operator = useTranslations("operator");
  const reason = useErrorReason();
  return (
    <Card aria-labelledby="failures-title">
      <CardHeader>
        <CardTitle id="failures-title">{t("failures")}</CardTitle>
        <CardDescription>{t("failuresDescription")}</CardDescription>
      </CardHeader>
      <CardContent>
        {failures.length === 0 ? (
          <p className="text-sm text-slate-600">{t("noFailures")}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-100" data-testid="operator-failures">
            {failures.map(({ errorCode, count }) => (
              <li key={errorCode ?? ""} className="flex items-start justify-between gap-3 py-2 first:pt-0 last:pb-0" data-error-code={errorCode ?? ""}>
                <div className="flex min-w-0 flex-col gap-0.5">
                  <span className="text-sm text-slate-900">{errorCode ? (reason(errorCode) ?? t("unknownCode")) : t("noCode")}</span>
                  {errorCode ? <CodeValue value={errorCode} className="text-xs text-slate-600" /> : null}
                </div>
                <span className="shrink-0 text-sm font-semibold tabular-nums">{operator("count", { count })}</span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** The period's documents as a file; the route streams them and logs the export in the access log. */
function Exports({ params }: { params: PeriodParams }) {
  const t = useTranslations("operator.overview");
  const query = (format: string) => new URLSearchParams({ format, range: params.choice, from: params.from, to: params.to }).toString();
  return (
    <div role="group" aria-label={t("exportLabel")} className="flex flex-wrap items-center gap-2 text-sm">
      <span className="text-slate-600">{t("export")}</span>
      <a href={`/api/operator/export?${query("csv")}`} download className={buttonClasses("secondary", "sm")}>
        {t("csv")}
      </a>
      <a href={`/api/operator/export?${query("json")}`} download className={buttonClasses("secondary", "sm")}>
        {t("json")}
      </a>
    </div>
  );
}
