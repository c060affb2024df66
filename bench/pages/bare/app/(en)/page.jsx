import { CountButton } from "../count-button";

export default function Page() {
  return (
    <main className="mx-auto flex max-w-3xl flex-col items-start gap-4 px-4 py-16">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">A bare Next.js page</h1>
      <p className="text-lg text-slate-600">
        One heading, one paragraph and one client button, with Tailwind&apos;s base styles: what Next.js and React cost
        before any of the app&apos;s own code.
      </p>
      <CountButton />
    </main>
  );
}
