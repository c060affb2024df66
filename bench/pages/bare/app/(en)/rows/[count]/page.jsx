import { CountButton } from "../../../count-button";

/**
 * The bare page with a list of `count` rows (5 elements each, like a row of the operator pages' lists), prerendered:
 * what Next.js and React alone charge for a page's content (`npm run bench:pages:content`, docs/page-weight.md).
 */
export const dynamicParams = false;

export function generateStaticParams() {
  return ["10", "25", "50", "100", "160"].map((count) => ({ count }));
}

export default async function Page({ params }) {
  const count = Number((await params).count);
  return (
    <main className="mx-auto flex max-w-3xl flex-col items-start gap-4 px-4 py-16">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">A bare Next.js page</h1>
      <CountButton />
      <ul className="flex w-full flex-col divide-y divide-slate-100">
        {Array.from({ length: count }, (_, row) => (
          <li key={row} className="grid gap-1 py-3 sm:grid-cols-[12rem_minmax(0,1fr)] sm:gap-4">
            <span className="text-xs text-slate-600 sm:text-sm">28 November 2026 at 04:{String(row % 60).padStart(2, "0")}</span>
            <div className="flex min-w-0 flex-col gap-0.5 text-sm">
              <span className="text-slate-900">Row {row + 1} of the list, a line of text as long as an entry&apos;s</span>
              <a href="#top" className="break-all text-sky-700 underline underline-offset-2">
                person{row}@example.com
              </a>
            </div>
          </li>
        ))}
      </ul>
    </main>
  );
}
