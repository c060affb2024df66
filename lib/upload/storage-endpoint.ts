import { UploadError } from "@/lib/upload/upload-error";

/**
 * Checks the service's `uploadendpoint` before a single byte is sent: its origin must be exactly one of the
 * configured storage origins (scheme, host and port), so user files never go to an unexpected host.
 * Configured origins are https in production; an http origin (the sandbox's Azurite) is accepted only
 * because someone configured it explicitly. Returns the parsed URL.
 */
export function assertAllowedUploadEndpoint(endpoint: string, allowedOrigins: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new UploadError("UPLOAD_HOST_NOT_ALLOWED");
  }
  // Credentials in the URL would be sent to the host as Basic auth; a SAS never needs them.
  const hasCredentials = url.username !== "" || url.password !== "";
  if (hasCredentials || !allowedOrigins.includes(url.origin)) throw new UploadError("UPLOAD_HOST_NOT_ALLOWED");
  return url;
}
