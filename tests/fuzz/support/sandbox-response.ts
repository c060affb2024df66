import { expect } from "vitest";

/** A whole answer: status, headers, the body parsed as JSON when it is JSON, and the raw text for failure messages. */
export interface ReadAnswer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export type SandboxResponse = ReadAnswer;

export async function readAnswer(response: Response): Promise<ReadAnswer> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** Sends one request and reads the whole answer. */
export async function send(url: string, init: RequestInit): Promise<SandboxResponse> {
  return readAnswer(await fetch(url, init));
}

/** The sandbox's (and the spec's) error shape: JSON `{ error, error_description }`, both non-empty strings. */
export function expectSandboxError(response: SandboxResponse): void {
  expect(response.headers.get("content-type") ?? "", response.text).toMatch(/^application\/json/);
  expect(response.body, response.text).toEqual({ error: expect.any(String), error_description: expect.any(String) });
  const { error } = response.body as { error: string };
  expect(error, response.text).toMatch(/^[a-z_]+$/);
}
