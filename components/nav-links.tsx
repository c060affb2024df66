"use client";
import { Link } from "@/components/ui/link";
import { usePathname } from "next/navigation";
import { useTranslations } from "next-intl";
import { cn } from "@/lib/utils";

const links = [
  { href: "/account", messageKey: "account" },
  { href: "/documents", messageKey: "documents" },
] as const;

/** A link the server adds for this user alone, already in words (the operator pages' link, for operators only). */
export type ExtraNavLink = { href: string; label: string };

/**
 * The header's navigation. `extra` comes from the server: a link only some users get is decided there, so nobody
 * else's page carries its address or its words.
 */
export function NavLinks({ extra = [] }: { extra?: ExtraNavLink[] }) {
  const pathname = usePathname();
  const t = useTranslations("header");
  const all = [...links.map((link) => ({ href: link.href, label: t(link.messageKey) })), ...extra];
  return (
    <nav aria-label={t("mainNav")} className="flex items-center gap-1">
      {all.map((link) => {
        const current = pathname === link.href || pathname.startsWith(`${link.href}/`);
        return (
          <Link
            key={link.href}
            href={link.href}
            aria-current={current ? "page" : undefined}
            className={cn(
              "rounded-md px-3 py-1.5 text-sm font-medium",
              current ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100",
            )}
          >
            {link.label}
          </Link>
        );
      })}
    </nav>
  );
}
