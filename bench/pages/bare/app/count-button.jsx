"use client";
import { useState } from "react";

export function CountButton() {
  const [count, setCount] = useState(0);
  return (
    <button type="button" className="rounded-md bg-slate-900 px-4 py-2 text-white" onClick={() => setCount(count + 1)}>
      Pressed {count} times
    </button>
  );
}
