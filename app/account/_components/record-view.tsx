import type { ReactNode } from "react";
import { useFormatter, useTranslations } from "next-intl";

type Formatter = ReturnType<typeof useFormatter>;
type RecordTranslator = ReturnType<typeof useTranslations<"record">>;

/** "createdAt" → "Created at", "customer_id" → "Customer id": for a field the catalog does not name. */
function humanize(key: string): string {
  const spaced = key
    .replace(/[_-]+/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

/** The catalog's label for the fields the service is known to send, else the key made readable. */
function label(t: RecordTranslator, key: string): string {
  return t.has(`fields.${key}` as never) ? t(`fields.${key}` as never) : humanize(key);
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function renderValue(value: unknown, t: RecordTranslator, format: Formatter): ReactNode {
  if (value === null || value === undefined || value === "") return <span className="text-slate-400">—</span>;
  if (typeof value === "string" && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))) {
    return (
      <time dateTime={value} title={value}>
        {format.dateTime(new Date(value), "dateTime")}
      </time>
    );
  }
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  if (typeof value === "number") return format.number(value);
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== "object" || v === null)) return value.map(String).join(", ") || "—";
    return (
      <ul className="flex flex-col gap-2">
        {value.map((item, i) => (
          <li key={i}>{renderValue(item, t, format)}</li>
        ))}
      </ul>
    );
  }
  if (typeof value === "object") return <RecordView record={value as Record<string, unknown>} nested />;
  return String(value);
}

/**
 * Renders whatever record the service returns, readably: the spec leaves the fields open, so
 * nested objects become titled groups and keys become labels. Values are shown as the service gives them
 * (names included); dates in the reader's language and time zone, numbers grouped by locale.
 */
export function RecordView({ record, nested = false }: { record: Record<string, unknown>; nested?: boolean }) {
  const t = useTranslations("record");
  const format = useFormatter();
  const entries = Object.entries(record);
  const scalars = entries.filter(([, v]) => typeof v !== "object" || v === null || Array.isArray(v));
  const groups = entries.filter(([, v]) => typeof v === "object" && v !== null && !Array.isArray(v));

  return (
    <div className="flex flex-col gap-5" data-testid={nested ? undefined : "account-record"}>
      {scalars.length > 0 ? (
        <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[minmax(8rem,auto)_1fr]">
          {scalars.map(([key, value]) => (
            <div key={key} className="contents">
              <dt className="font-medium text-slate-500">{label(t, key)}</dt>
              <dd className="break-words text-slate-900">{renderValue(value, t, format)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {groups.map(([key, value]) => (
        <section key={key} className="flex flex-col gap-2">
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{label(t, key)}</h3>
          <div className="rounded-lg border border-slate-100 bg-slate-50/60 p-3">
            <RecordView record={value as Record<string, unknown>} nested />
          </div>
        </section>
      ))}
    </div>
  );
}
