import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";

export default function NotFound() {
  return (
    <div className="mx-auto flex max-w-md flex-col items-start gap-4 py-12">
      <h1 className="text-2xl font-bold">Page not found</h1>
      <p className="text-slate-600">The page you asked for does not exist.</p>
      <Link href="/" className={buttonClasses("secondary")}>
        Back to the start page
      </Link>
    </div>
  );
}
