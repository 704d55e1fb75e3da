import { useEffect, type RefObject } from 'react';

const tabSelector = '[role="tab"][data-sample-tab]';

/** Shows the `key` panel (curl, sdk) of every sample inside `root`; focuses the tab of `focus`'s tab list. */
function select(root: HTMLElement, key: string, focus?: HTMLElement) {
  for (const tab of Array.from(root.querySelectorAll<HTMLElement>(tabSelector))) {
    const selected = tab.dataset.sampleTab === key;
    tab.setAttribute('aria-selected', String(selected));
    tab.tabIndex = selected ? 0 : -1;
    const panel = root.querySelector<HTMLElement>(`#${CSS.escape(tab.getAttribute('aria-controls') ?? '')}`);
    if (panel) panel.hidden = !selected;
    if (selected && focus && tab.parentElement === focus) tab.focus();
  }
}

const moves: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_, count) => count - 1,
};

/**
 * The request tabs of the samples (curl | Node SDK), as WAI-ARIA tabs: a click or the arrow,
 * Home and End keys select a tab, and every sample of the page follows the same choice.
 */
export function useSampleTabs(ref: RefObject<HTMLElement>) {
  useEffect(() => {
    const root = ref.current;
    if (!root) return undefined;
    const onClick = (event: MouseEvent) => {
      const tab = (event.target as HTMLElement).closest<HTMLElement>(tabSelector);
      if (tab?.dataset.sampleTab) select(root, tab.dataset.sampleTab);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const tab = (event.target as HTMLElement).closest<HTMLElement>(tabSelector);
      const move = moves[event.key];
      if (!tab || !move || !tab.parentElement) return;
      const tabs = Array.from(tab.parentElement.querySelectorAll<HTMLElement>(tabSelector));
      const next = tabs[move(tabs.indexOf(tab), tabs.length)];
      if (!next?.dataset.sampleTab) return;
      event.preventDefault();
      select(root, next.dataset.sampleTab, tab.parentElement);
    };
    root.addEventListener('click', onClick);
    root.addEventListener('keydown', onKeyDown);
    return () => {
      root.removeEventListener('click', onClick);
      root.removeEventListener('keydown', onKeyDown);
    };
  }, [ref]);
}
