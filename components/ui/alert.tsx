import type { HTMLAttributes, ReactNode } from "react";
import { cn } from "@/lib/utils";

const tones = {
  info: "border-sky-200 bg-sky-50 text-sky-900",
  success: "border-emerald-200 bg-emerald-50 text-emerald-900",
  warning: "border-amber-200 bg-amber-50 text-amber-900",
  error: "border-red-200 bg-red-50 text-red-900",
} as const;

type AlertProps = Omit<HTMLAttributes<HTMLDivElement>, "title"> & {
  tone?: keyof typeof tones;
  title: ReactNode;
  action?: ReactNode;
};

/** A message box; errors and warnings are announced to assistive technology. */
export function Alert({ tone = "info", title, action, children, className, ...props }: AlertProps) {
  const urgent = tone === "error" || tone === "warning";
  return (
    <div
      role={urgent ? "alert" : "status"}
      className={cn("flex flex-col gap-3 rounded-lg border px-4 py-3 sm:flex-row sm:items-start sm:justify-between", tones[tone], className)}
      {...props}
    >
      <div className="flex flex-col gap-1">
        <p className="font-medium">{title}</p>
        {children ? <div className="text-sm opacity-90">{children}</div> : null}
      </div>
      {action ? <div className="shrink-0">{action}</div> : null}
    </div>
  );
}
