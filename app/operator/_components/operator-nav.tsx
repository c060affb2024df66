import { Link } from "@/components/ui/link";
import { useTranslations } from "next-intl";
import { cn } from "@/lib/utils";

const LINKS = [
  { key: "overview", href: "/operator" },
  { key: "stuck", href: "/operator/stuck" },
  { key: "search", href: "/operator/search" },
  { key: "access", href: "/operator/access" },
] as const;

export type OperatorSection = (typeof LINKS)[number]["key"];

/**
 * The operator pages' own navigation, rendered on the server with the current section marked (no client code: only
 * operators get these pages, and the header's link is the way in).
 */
export function OperatorNav({ current }: { current?: OperatorSection }) {
  const t = useTranslations("operator.nav");
  return (
    <nav aria-label={t("label")} className="-mx-1 flex flex-wrap gap-1 border-b border-slate-200 pb-2">
      {LINKS.map((link) => (
        <Link
          key={link.key}
          href={link.href}
          aria-current={link.key === current ? "page" : undefined}
          className={cn(
            "rounded-md px-3 py-1.5 text-sm font-medium",
            link.key === current ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100",
          )}
        >
          {t(link.key)}
        </Link>
      ))}
    </nav>
  );
}

/** Every operator page's top: its section navigation, then the page's title and what it shows. */
export function OperatorPageHeading({ current, title, intro }: { current?: OperatorSection; title: string; intro?: string }) {
  return (
    <div className="flex flex-col gap-4">
      <OperatorNav current={current} />
      <div>
        <h1 className="break-words text-2xl font-bold tracking-tight">{title}</h1>
        {intro ? <p className="text-sm text-slate-600">{intro}</p> : null}
      </div>
    </div>
  );
}
