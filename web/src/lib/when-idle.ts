/** Runs `task` once the browser has nothing better to do (or after a few seconds at most). */
export function whenIdle(task: () => void) {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(task, { timeout: 5000 });
  else setTimeout(task, 2000);
}
