import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False while React hydrates a page prerendered at build time (and when rendering it at
 * build time), true once the page's code runs it; a page rendered in the browser is true from
 * its first render. The prerendered sign-in forms stay disabled until then: typing into them
 * before hydration would be lost, and a press of Login would submit the bare HTML form.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
