import { useState } from 'react';

interface Props {
  id: string;
  label: string;
  value: string;
  copyLabel: string;
  copiedLabel: string;
}

/** A value to enter in the identity provider, with a button that copies it. */
export function CopyField({ id, label, value, copyLabel, copiedLabel }: Props) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      const input = document.getElementById(id) as HTMLInputElement;
      input.select();
      document.execCommand('copy');
    }
    setCopied(true);
    window.setTimeout(() => setCopied(false), 2_000);
  };
  return (
    <div className="value">
      <label htmlFor={id}>{label}</label>
      <div className="row">
        <input id={id} readOnly value={value} onFocus={(event) => event.target.select()} />
        <button type="button" className="secondary" data-testid={`copy-${id}`} onClick={() => void copy()}>
          {copied ? copiedLabel : copyLabel}
        </button>
      </div>
    </div>
  );
}
