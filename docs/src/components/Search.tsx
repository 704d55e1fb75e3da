import React, { Suspense, lazy, useCallback, useEffect, useRef, useState } from 'react';
import { useI18next } from '../site/translation';

// The dialog, its search code and the index are loaded when the search is first opened: the
// pages do not ship or run them before a reader asks for them.
const SearchDialog = lazy(() => import('./SearchDialog').then((module) => ({ default: module.SearchDialog })));

function editable(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element && (element.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(element.tagName));
}

/** `/` (outside a text field) and Ctrl+K or Cmd+K open the search. */
function useShortcut(open: () => void) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const modified = (event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k';
      if (modified || (event.key === '/' && !event.ctrlKey && !event.metaKey && !editable(event.target))) {
        event.preventDefault();
        open();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);
}

/** The search button of the navbar and its dialog: a combobox over the guides of the page's language. */
export function Search() {
  const { t } = useI18next();
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  const show = useCallback(() => setOpen(true), []);
  useShortcut(show);
  const close = useCallback(() => {
    setOpen(false);
    trigger.current?.focus();
  }, []);
  return (
    <>
      <button
        ref={trigger}
        type="button"
        className="search-button"
        aria-label={t('search.open')}
        aria-haspopup="dialog"
        aria-keyshortcuts="/ Control+K Meta+K"
        onClick={show}
      >
        <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true">
          <path d="M10 4a6 6 0 1 0 0 12 6 6 0 0 0 0-12Zm10 16-5.2-5.2" stroke="currentColor" strokeWidth="2" fill="none" />
        </svg>
        <span className="search-button-label">{t('search.open')}</span>
        <kbd aria-hidden="true">/</kbd>
      </button>
      {open ? (
        <Suspense fallback={null}>
          <SearchDialog onClose={close} />
        </Suspense>
      ) : null}
    </>
  );
}
