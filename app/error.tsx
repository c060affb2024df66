"use client";
import { useTranslations } from "next-intl";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { SupportContact } from "@/components/support-contact";
import { useBrandSupport } from "@/components/brand-support-context";

export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const support = useBrandSupport();
  const t = useTranslations("errorPage");
  const common = useTranslations("common");
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-4 py-12">
      <Alert
        tone="error"
        title={t("title")}
        action={
          <Button size="sm" variant="secondary" onClick={reset}>
            {common("tryAgain")}
          </Button>
        }
      >
        {t("body")}
        {error.digest ? <> {t("reference", { digest: error.digest })}</> : null}
      </Alert>
      <SupportContact support={support} />
    </div>
  );
}
