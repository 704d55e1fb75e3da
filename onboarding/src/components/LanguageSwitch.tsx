import { languages, messages } from '../i18n';
import type { Language } from '../i18n';

export function LanguageSwitch({ language, onChange }: { language: Language; onChange(language: Language): void }) {
  return (
    <nav className="languages" aria-label="Language / Langue">
      {languages.map((code) => (
        <button
          key={code}
          type="button"
          lang={code}
          aria-pressed={code === language}
          className={code === language ? 'link active' : 'link'}
          onClick={() => onChange(code)}
        >
          {messages[code].languageName}
        </button>
      ))}
    </nav>
  );
}
