// jsdom ships no types (and @types/jsdom is not installed): just what next-auth-client.test.ts uses.
declare module 'jsdom' {
  export class JSDOM {
    constructor(html?: string, options?: { url?: string; pretendToBeVisual?: boolean });
    readonly window: {
      document: unknown;
      localStorage: { getItem(key: string): string | null; clear(): void };
      navigator: { sendBeacon?: (url: string, data?: unknown) => boolean };
      location: { href: string };
      close(): void;
    };
  }
}
