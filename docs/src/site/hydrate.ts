import { startTransition, type ReactElement } from 'react';

/**
 * Gatsby's renderer (`replaceHydrateFunction`), with the hydration of a server-rendered page
 * started inside a transition: React then hydrates in slices of a few milliseconds, yielding to
 * the browser between them, instead of one long task that blocks input while the page loads.
 * A page without server-rendered content (as Gatsby decides it) is rendered as before.
 * react-dom is imported here, when the page renders, so that it is not evaluated with the rest of
 * the scripts in the first task (see also webpack/react-dom-utils.js), and the rendering starts in
 * the next task: evaluating react-dom and starting React are two short tasks, not one long one.
 */
export function renderSite(element: ReactElement, container: Element): void {
  const rendered = document.getElementById('gatsby-focus-wrapper')?.children.length;
  void import('react-dom/client').then(({ createRoot, hydrateRoot }) =>
    setTimeout(() => {
      if (!rendered) {
        createRoot(container).render(element);
        return;
      }
      startTransition(() => {
        hydrateRoot(container, element);
      });
    }, 0),
  );
}
