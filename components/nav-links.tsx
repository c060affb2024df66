"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useTranslations } from "next-intl";
import { cn } from "@/lib/utils";

const links = [
  { href: "/account", messageKey: "account" },
  { href: "/documents", messageKey: "documents" },
] as const;

export function NavLinks() {
  const pathname = usePathname();
  const t = useTranslations("header");
  return (
    <nav aria-label={t("mainNav")} className="flex items-center gap-1">
      {links.map((link) => {
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
            {t(link.messageKey)}
          </Link>
        );
      })}
    </nav>
  );
}
