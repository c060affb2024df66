import { cn } from "@/lib/utils";

export function Spinner({ className, label = "Loading" }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex items-center gap-2">
      <span
        aria-hidden="true"
        className={cn("size-4 animate-spin rounded-full border-2 border-current border-t-transparent", className)}
      />
      <span className="sr-only">{label}</span>
    </span>
  );
}
