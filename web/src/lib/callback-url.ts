/** A same-origin path from a callbackUrl, or null for anything that would leave the app. */
export function callbackPath(callbackUrl: string | null | undefined): string | null {
  if (!callbackUrl) return null;
  try {
    const url = new URL(callbackUrl, window.location.origin);
    return url.origin === window.location.origin ? `${url.pathname}${url.search}${url.hash}` : null;
  } catch {
    return null;
  }
}
