import { cn } from "@/lib/utils";

type ProgressBarProps = {
  /** 0–100, or null while the amount of work is not known yet. */
  value: number | null;
  label: string;
  /** Spoken instead of the bare percentage, e.g. "42% · 12 MiB of 30 MiB". */
  valueText?: string;
  tone?: "brand" | "success" | "error";
  className?: string;
};

const tones = { brand: "bg-brand-600", success: "bg-emerald-600", error: "bg-red-500" } as const;

/** A progress bar that assistive technology reads as one (role, value and text). */
export function ProgressBar({ value, label, valueText, tone = "brand", className }: ProgressBarProps) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value ?? undefined}
      aria-valuetext={valueText}
      className={cn("h-2 w-full overflow-hidden rounded-full bg-slate-100", className)}
    >
      <div
        className={cn("h-full rounded-full transition-[width] duration-200", tones[tone], value === null && "w-1/3 animate-pulse")}
        style={value === null ? undefined : { width: `${value}%` }}
      />
    </div>
  );
}
