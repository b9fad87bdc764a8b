import type { createMemoryRouter } from 'react-router';

type DataRouter = Pick<ReturnType<typeof createMemoryRouter>, 'state' | 'subscribe'>;

/** Resolves once the router has loaded the first location's lazy routes (its page's chunks). */
export function routerReady(router: DataRouter): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = router.subscribe((state) => {
      if (!state.initialized) return;
      unsubscribe();
      resolve();
    });
  });
}
