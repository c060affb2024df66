import { useLocale, useTranslations } from "next-intl";
import { ReturnToInput } from "@/components/return-to-input";
import { LOCALES } from "@/lib/i18n/locales";
import { cn } from "@/lib/utils";

/**
 * The header's language menu: a disclosure (<details>) holding a form with one button per language, each named in
 * its own language and marked with its own `lang`. It posts to /language, which remembers the choice and comes
 * back to the same page: no JavaScript needed.
 */
export function LanguageMenu() {
  const t = useTranslations("language");
  const current = useLocale();
  const currentName = LOCALES.find((l) => l.code === current)?.name ?? current;
  return (
    <details className="group relative" data-testid="language-menu">
      <summary className="flex cursor-pointer list-none items-center gap-1 rounded-md px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-100">
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4 fill-none stroke-current" strokeWidth="1.5">
          <circle cx="10" cy="10" r="7.5" />
          <path d="M2.5 10h15M10 2.5c2 2.2 3 4.7 3 7.5s-1 5.3-3 7.5c-2-2.2-3-4.7-3-7.5s1-5.3 3-7.5Z" />
        </svg>
        <span className="sr-only">{t("menu")}: </span>
        <span lang={current}>{currentName}</span>
      </summary>
      <form
        action="/language"
        method="post"
        aria-label={t("choose")}
        className="absolute right-0 z-10 mt-1 flex min-w-32 flex-col rounded-lg border border-slate-200 bg-white p-1 shadow-lg"
      >
        <ReturnToInput />
        {LOCALES.map((locale) => (
          <button
            key={locale.code}
            type="submit"
            name="locale"
            value={locale.code}
            lang={locale.code}
            aria-current={locale.code === current ? "true" : undefined}
            className={cn(
              "rounded-md px-3 py-1.5 text-left text-sm",
              locale.code === current ? "bg-brand-50 font-medium text-brand-700" : "text-slate-700 hover:bg-slate-100",
            )}
          >
            {locale.name}
          </button>
        ))}
      </form>
    </details>
  );
}
