import { useTranslations } from "next-intl";
import { Alert } from "@/components/ui/alert";
import { authErrorKey } from "@/lib/auth-error-messages";

export function AuthErrorAlert({ code }: { code: string }) {
  const t = useTranslations("authErrors");
  const key = authErrorKey(code);
  return (
    <Alert tone="error" title={t(`${key}.title`)} data-testid="auth-error">
      {t(`${key}.body`)}
    </Alert>
  );
}
