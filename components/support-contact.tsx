import { useTranslations } from "next-intl";
import type { Brand } from "@/lib/brand/brand";

/** "Need help? Contact …" with the deployer's support address (BRAND_SUPPORT); nothing when none is set. */
export function SupportContact({ support, className }: { support: Brand["support"]; className?: string }) {
  const t = useTranslations("support");
  if (!support) return null;
  return (
    <p className={className ?? "text-sm text-slate-600"} data-testid="support-contact">
      {t.rich("needHelp", {
        label: support.label,
        link: (text) => (
          <a href={support.href} className="font-medium text-brand-700 underline underline-offset-2">
            {text}
          </a>
        ),
      })}
    </p>
  );
}
