import { useFormatter, useTranslations } from "next-intl";
import type { OperatorOverview } from "@/lib/operators/types";

type Day = OperatorOverview["days"][number];

const SERIES = ["created", "uploaded", "failed"] as const;
type Series = (typeof SERIES)[number];

const PLOT_HEIGHT = 140;
const TOP = 18;
const AXIS_WIDTH = 36;
const LABEL_HEIGHT = 22;

/**
 * Each series is told apart by its fill pattern as well as its colour, so the chart reads in greyscale and for people
 * who do not see the colours: created is an outline, uploaded solid, failed hatched. The legend shows the same swatches.
 */
function Swatch({ series, x, y, width, height }: { series: Series; x: number; y: number; width: number; height: number }) {
  if (series === "created") return <rect x={x + 0.75} y={y + 0.75} width={Math.max(0, width - 1.5)} height={Math.max(0, height - 1.5)} className="fill-white stroke-slate-700" strokeWidth={1.5} />;
  if (series === "uploaded") return <rect x={x} y={y} width={width} height={height} className="fill-brand-700" />;
  return <rect x={x + 0.75} y={y + 0.75} width={Math.max(0, width - 1.5)} height={Math.max(0, height - 1.5)} fill="url(#operator-chart-hatch)" className="stroke-red-800" strokeWidth={1.5} />;
}

function HatchPattern() {
  return (
    <pattern id="operator-chart-hatch" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="5" height="5" className="fill-white" />
      <line x1="0" y1="0" x2="0" y2="5" className="stroke-red-800" strokeWidth="2.5" />
    </pattern>
  );
}

/** A round upper bound for the axis: 1, 2, 5, 10, 20, 50 … at least `max`. */
function niceCeiling(max: number): number {
  if (max <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((step) => step * magnitude).find((v) => v >= max)!;
}

/**
 * Documents per day of the period — created, uploaded, failed — as an SVG drawn on the server: no chart library, no
 * JavaScript in the browser. Each day is a group of three bars, each with its number above it (for longer periods, only
 * the number created, for want of room); the axis is in
 * whole documents. A long period scrolls sideways inside its own region (focusable, so the keyboard can scroll it),
 * never the page. The same figures follow as a table for screen readers and for reading exact values.
 */
export function DayChart({ days }: { days: Day[] }) {
  const t = useTranslations("operator.chart");
  const format = useFormatter();
  const column = days.length <= 7 ? 72 : days.length <= 31 ? 30 : 18;
  const bar = (column - 6) / 3;
  const labelEvery = bar >= 14;
  const width = AXIS_WIDTH + column * days.length + 4;
  const height = TOP + PLOT_HEIGHT + LABEL_HEIGHT;
  const ceiling = niceCeiling(Math.max(0, ...days.flatMap((d) => SERIES.map((s) => d[s]))));
  const y = (value: number) => TOP + PLOT_HEIGHT - (value / ceiling) * PLOT_HEIGHT;
  // Days are calendar days in the operator's zone already: formatted as dates in UTC so that no zone shifts them.
  const dayLabel = (day: string) =>
    format.dateTime(new Date(`${day}T00:00:00Z`), days.length <= 7 ? { month: "numeric", day: "numeric", timeZone: "UTC" } : { day: "numeric", timeZone: "UTC" });
  const fullDay = (day: string) => format.dateTime(new Date(`${day}T00:00:00Z`), { dateStyle: "medium", timeZone: "UTC" });
  const series = { created: t("created"), uploaded: t("uploaded"), failed: t("failed") } satisfies Record<Series, string>;

  return (
    <div className="flex flex-col gap-3">
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700" aria-label={t("legend")}>
        {SERIES.map((s) => (
          <li key={s} className="flex items-center gap-1.5">
            <svg aria-hidden="true" viewBox="0 0 14 14" className="size-3.5">
              <defs>{s === "failed" ? <HatchPattern /> : null}</defs>
              <Swatch series={s} x={0} y={0} width={14} height={14} />
            </svg>
            {series[s]}
          </li>
        ))}
      </ul>
      {/* Right-to-left as a scroll box only (the chart inside is left-to-right): where the chart is wider than the
          screen, it opens on the newest days, without JavaScript, and scrolls back to the older ones. */}
      <div role="region" aria-label={t("scrollLabel")} tabIndex={0} className="overflow-x-auto rounded-md [direction:rtl] focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
        <svg role="img" aria-label={t("summary", { days: days.length })} width={width} height={height} viewBox={`0 0 ${width} ${height}`} className="mr-auto block max-w-none text-[11px] [direction:ltr]" data-testid="operator-day-chart">
          <defs>
            <HatchPattern />
          </defs>
          {[0, ceiling / 2, ceiling].map((tick) => (
            <g key={tick}>
              <line x1={AXIS_WIDTH - 4} x2={width} y1={y(tick)} y2={y(tick)} className="stroke-slate-200" strokeWidth={1} />
              <text x={AXIS_WIDTH - 8} y={y(tick) + 4} textAnchor="end" className="fill-slate-600">
                {Number.isInteger(tick) ? format.number(tick) : ""}
              </text>
            </g>
          ))}
          {days.map((d, i) => {
            const left = AXIS_WIDTH + i * column + 3;
            return (
              <g key={d.day} data-day={d.day}>
                <title>{t("dayTitle", { day: fullDay(d.day), created: d.created, uploaded: d.uploaded, failed: d.failed })}</title>
                {SERIES.map((s, j) => (
                  <Swatch key={s} series={s} x={left + j * bar} y={y(d[s])} width={bar} height={TOP + PLOT_HEIGHT - y(d[s])} />
                ))}
                {/* Each bar's number above it where there is room (a week or less); else the number created. */}
                {SERIES.filter((s) => d[s] > 0 && (labelEvery || s === "created")).map((s) => (
                  <text key={s} x={left + SERIES.indexOf(s) * bar + bar / 2} y={y(d[s]) - 4} textAnchor="middle" className="fill-slate-900 font-medium">
                    {format.number(d[s])}
                  </text>
                ))}
                <text x={left + (column - 6) / 2} y={height - 6} textAnchor="middle" className="fill-slate-600">
                  {dayLabel(d.day)}
                </text>
              </g>
            );
          })}
          <line x1={AXIS_WIDTH - 4} x2={width} y1={y(0)} y2={y(0)} className="stroke-slate-500" strokeWidth={1} />
        </svg>
      </div>
      <details className="text-sm">
        <summary className="w-fit cursor-pointer rounded-sm font-medium text-slate-700 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600">
          {t("asTable")}
        </summary>
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-left text-sm" data-testid="operator-day-table">
            <caption className="sr-only">{t("tableCaption")}</caption>
            <thead>
              <tr className="border-b border-slate-200 text-slate-600">
                <th scope="col" className="py-1 pr-4 font-medium">{t("day")}</th>
                {SERIES.map((s) => (
                  <th key={s} scope="col" className="py-1 pr-4 text-right font-medium">{series[s]}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.day} className="border-b border-slate-100">
                  <th scope="row" className="py-1 pr-4 font-normal text-slate-700">{fullDay(d.day)}</th>
                  {SERIES.map((s) => (
                    <td key={s} className="py-1 pr-4 text-right tabular-nums">{format.number(d[s])}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}
