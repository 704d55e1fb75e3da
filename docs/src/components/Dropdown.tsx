import React, { useEffect, useRef, useState } from 'react';

interface DropdownProps {
  label: React.ReactNode;
  /** Accessible name of the button. */
  title: string;
  className?: string;
  children: (close: () => void) => React.ReactNode;
}

/** A button opening a menu; closes on outside click and on Escape. */
export function Dropdown({ label, title, className, children }: DropdownProps) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return undefined;
    const onClick = (event: MouseEvent) => {
      if (ref.current && !ref.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setOpen(false);
    document.addEventListener('mousedown', onClick);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onClick);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  return (
    <div className={`dropdown ${open ? 'dropdown--open' : ''} ${className ?? ''}`} ref={ref}>
      <button
        type="button"
        className="dropdown-toggle"
        aria-haspopup="menu"
        aria-expanded={open}
        title={title}
        aria-label={title}
        onClick={() => setOpen(!open)}
      >
        {label}
      </button>
      {open ? (
        <ul className="dropdown-menu" role="menu">
          {children(() => setOpen(false))}
        </ul>
      ) : null}
    </div>
  );
}
