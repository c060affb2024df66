import { expect } from "vitest";

export interface SandboxResponse {
  status: number;
  headers: Headers;
  body: unknown;
  /** The raw text, for failure messages. */
  text: string;
}

/** Sends one request and reads the whole answer; JSON bodies are parsed, anything else kept as text. */
export async function send(url: string, init: RequestInit): Promise<SandboxResponse> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** The sandbox's (and the spec's) error shape: JSON `{ error, error_description }`, both non-empty strings. */
export function expectSandboxError(response: SandboxResponse): void {
  expect(response.headers.get("content-type") ?? "", response.text).toMatch(/^application\/json/);
  expect(response.body, response.text).toEqual({ error: expect.any(String), error_description: expect.any(String) });
  const { error } = response.body as { error: string };
  expect(error, response.text).toMatch(/^[a-z_]+$/);
}
