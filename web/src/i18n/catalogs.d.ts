/** A compiled message catalog (vite.config.ts `messageCatalogs`). */
declare module 'virtual:pipit-catalog/*' {
  import type { Messages } from '@lingui/core';

  const messages: Messages;
  export default messages;
}
