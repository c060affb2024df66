import type { ReactNode } from "react";

/** "createdAt" → "Created at", "customer_id" → "Customer id". */
function humanize(key: string): string {
  const spaced = key
    .replace(/[_-]+/g, " ")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

function renderValue(value: unknown): ReactNode {
  if (value === null || value === undefined || value === "") return <span className="text-slate-400">—</span>;
  if (typeof value === "string" && ISO_DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))) {
    return (
      <time dateTime={value} title={value}>
        {new Date(value).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}
      </time>
    );
  }
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== "object" || v === null)) return value.map(String).join(", ") || "—";
    return (
      <ul className="flex flex-col gap-2">
        {value.map((item, i) => (
          <li key={i}>{renderValue(item)}</li>
        ))}
      </ul>
    );
  }
  if (typeof value === "object") return <RecordView record={value as Record<string, unknown>} nested />;
  return String(value);
}

/**
 * Renders whatever record the service returns, readably: the spec leaves the fields open, so
 * nested objects become titled groups and keys become labels.
 */
export function RecordView({ record, nested = false }: { record: Record<string, unknown>; nested?: boolean }) {
  const entries = Object.entries(record);
  const scalars = entries.filter(([, v]) => typeof v !== "object" || v === null || Array.isArray(v));
  const groups = entries.filter(([, v]) => typeof v === "object" && v !== null && !Array.isArray(v));

  return (
    <div className="flex flex-col gap-5" data-testid={nested ? undefined : "account-record"}>
      {scalars.length > 0 ? (
        <dl className="grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[minmax(8rem,auto)_1fr]">
          {scalars.map(([key, value]) => (
            <div key={key} className="contents">
              <dt className="font-medium text-slate-500">{humanize(key)}</dt>
              <dd className="break-words text-slate-900">{renderValue(value)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {groups.map(([key, value]) => (
        <section key={key} className="flex flex-col gap-2">
          <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{humanize(key)}</h3>
          <div className="rounded-lg border border-slate-100 bg-slate-50/60 p-3">
            <RecordView record={value as Record<string, unknown>} nested />
          </div>
        </section>
      ))}
    </div>
  );
}
