import { Link } from "@/components/ui/link";
import { useTranslations } from "next-intl";
import { buttonClasses } from "@/components/ui/button";

export default function NotFound() {
  const t = useTranslations("notFound");
  const common = useTranslations("common");
  return (
    <div className="mx-auto flex max-w-md flex-col items-start gap-4 py-12">
      <h1 className="text-2xl font-bold">{t("title")}</h1>
      <p className="text-slate-600">{t("body")}</p>
      <Link href="/" className={buttonClasses("secondary")}>
        {common("backToStart")}
      </Link>
    </div>
  );
}
