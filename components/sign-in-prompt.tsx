import { SignInButton } from "@/components/sign-in-button";
import { Card } from "@/components/ui/card";

/** What a signed-out visitor sees on a page that needs a session. */
export function SignInPrompt({ title, body, callbackUrl }: { title: string; body: string; callbackUrl: string }) {
  return (
    <Card className="mx-auto max-w-md">
      <div className="flex flex-col items-start gap-4 px-5 py-6">
        <h1 className="text-xl font-semibold">{title}</h1>
        <p className="text-sm text-slate-600">{body}</p>
        <SignInButton callbackUrl={callbackUrl} />
      </div>
    </Card>
  );
}
