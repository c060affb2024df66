import { Alert } from "@/components/ui/alert";
import { authErrorMessage } from "@/lib/auth-error-messages";

export function AuthErrorAlert({ code }: { code: string }) {
  const { title, body } = authErrorMessage(code);
  return (
    <Alert tone="error" title={title} data-testid="auth-error">
      {body}
    </Alert>
  );
}
