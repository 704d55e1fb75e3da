import { useEffect, type RefObject } from 'react';

/** Adds a copy button to every code block inside `ref`; it reads `copied` once the code is copied. */
export function useCodeCopy(ref: RefObject<HTMLElement>, labels: { copy: string; copied: string }) {
  useEffect(() => {
    const root = ref.current;
    if (!root) return undefined;
    const timers: number[] = [];
    const buttons: HTMLButtonElement[] = [];
    for (const block of Array.from(root.querySelectorAll<HTMLElement>('.gatsby-highlight'))) {
      if (block.querySelector('.copy-button')) continue;
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'copy-button';
      button.textContent = labels.copy;
      button.setAttribute('aria-label', labels.copy);
      button.addEventListener('click', async () => {
        const code = block.querySelector('code')?.innerText ?? '';
        try {
          await navigator.clipboard.writeText(code);
        } catch {
          const area = document.createElement('textarea');
          area.value = code;
          document.body.appendChild(area);
          area.select();
          document.execCommand('copy');
          area.remove();
        }
        button.textContent = labels.copied;
        button.classList.add('copy-button--copied');
        timers.push(
          window.setTimeout(() => {
            button.textContent = labels.copy;
            button.classList.remove('copy-button--copied');
          }, 2000),
        );
      });
      block.appendChild(button);
      buttons.push(button);
    }
    return () => {
      timers.forEach((timer) => window.clearTimeout(timer));
      buttons.forEach((button) => button.remove());
    };
  }, [ref, labels.copy, labels.copied]);
}
