import { useTranslations } from "next-intl";
import { Alert } from "@/components/ui/alert";

/** The app's database does not answer: said plainly, as the user's own list says it. */
export function DatabaseUnavailable() {
  const t = useTranslations("operator");
  return (
    <Alert tone="warning" title={t("unavailableTitle")} data-testid="operator-unavailable">
      {t("unavailableBody")}
    </Alert>
  );
}
