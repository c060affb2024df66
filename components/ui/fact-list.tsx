import type { ReactNode } from "react";
import { CodeValue } from "@/components/ui/code-value";

/** One row of a FactList: its data-field (stable for tests), label, value, and whether the value is an id or checksum. */
export type Fact = [field: string, label: string, value: ReactNode, monospace: boolean];

/**
 * Facts as a description list, label beside value from the small breakpoint on; ids and checksums in monospace on one
 * line, selectable for copying. A document's Technical details, for its user and for operators alike.
 */
export function FactList({ facts, testId }: { facts: Fact[]; testId: string }) {
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[7rem_minmax(0,1fr)]" data-testid={testId}>
      {facts.map(([field, label, value, mono]) => (
        <div key={field} className="contents">
          <dt className="font-medium text-slate-600">{label}</dt>
          <dd className={mono ? "min-w-0 text-xs leading-5 text-slate-900 sm:text-sm" : "min-w-0 break-words text-slate-900"} data-field={field}>
            {mono && typeof value === "string" ? <CodeValue value={value} /> : value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
