/**
 * Cookies as a browser keeps them, for every test client (the inject client of the server tests, the
 * fetch clients of the reliability suite and of the browser journeys): Set-Cookie lines in, a Cookie
 * header out. Values are kept decoded, as the server reads them.
 */
export class CookieJar extends Map<string, string> {
  /** The Cookie request header. */
  header(): string {
    return [...this].map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('; ');
  }

  /** Stores Set-Cookie answers: an empty value or Max-Age=0 deletes. */
  absorb(setCookie: string | readonly string[] | undefined): void {
    for (const line of [setCookie ?? []].flat()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = decodeURIComponent(pair.slice(eq + 1).trim());
      if (/;\s*Max-Age=0/i.test(line) || value === '') this.delete(name);
      else this.set(name, value);
    }
  }
}
