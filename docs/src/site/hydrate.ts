import { startTransition, type ReactElement } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';

/**
 * Gatsby's renderer (`replaceHydrateFunction`), with the hydration of a server-rendered page
 * started inside a transition: React then hydrates in slices of a few milliseconds, yielding to
 * the browser between them, instead of one long task that blocks input while the page loads.
 * A page without server-rendered content (as Gatsby decides it) is rendered as before.
 */
export function renderSite(element: ReactElement, container: Element): void {
  const rendered = document.getElementById('gatsby-focus-wrapper')?.children.length;
  if (!rendered) {
    createRoot(container).render(element);
    return;
  }
  startTransition(() => {
    hydrateRoot(container, element);
  });
}
